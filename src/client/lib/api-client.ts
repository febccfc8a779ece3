import { apiErrorSchema } from "#shared/schemas/error.ts";
import type { z } from "#shared/zod.ts";
import { sessionStore } from "./session.ts";

/** The server answered with an error: `message` is its `{ message }`, shown to the user as appErr. */
export class ApiError extends Error {
  readonly status: number;
  readonly issues: { path: string; message: string }[];

  constructor(status: number, message: string, issues: { path: string; message: string }[] = []) {
    super(message);
    this.status = status;
    this.issues = issues;
  }
}

/** The server's answer does not have the shape the shared contract promises. */
export class ContractError extends Error {}

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** A body sent as it is, with its own type (a CSV file). */
  raw?: { type: string; text: string };
  signal?: AbortSignal;
  /** Told as a form's bytes leave (fetch cannot say): a large upload shows its progress. */
  onUploadProgress?: (sent: number, total: number) => void;
}

/** An upload through XMLHttpRequest, the one browser API that reports an upload's progress. */
function sendWithProgress(
  path: string,
  method: string,
  headers: Record<string, string>,
  body: FormData,
  onProgress: (sent: number, total: number) => void,
) {
  return new Promise<{ status: number; payload: unknown }>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded, event.total);
    request.onload = () => {
      let payload: unknown;
      try {
        payload = request.status === 204 ? undefined : JSON.parse(request.responseText);
      } catch {}
      resolve({ status: request.status, payload });
    };
    request.onerror = () => reject(new TypeError("Failed to fetch"));
    request.send(body);
  });
}

/**
 * Checks an answer against its shared schema. In development and tests a mismatch fails loudly; in production it is
 * reported and the answer used as it is, since a reader is better served by a page that mostly works.
 */
function checked<S extends z.ZodMiniType>(path: string, schema: S, payload: unknown): z.output<S> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const error = new ContractError(`The answer of ${path} does not match its schema: ${parsed.error.message}`);
  if (import.meta.env.DEV) throw error;
  console.error(error);
  return payload as z.output<S>;
}

/**
 * Calls the API with the session's bearer token and parses the answer with `schema` (from src/shared, the same
 * one the server answers with). A 401 ends the session, so guarded screens send the user to /login. Network
 * failures reject with the browser's own error (serverErr: docs/specification.md §States and transitions).
 */
export async function api<S extends z.ZodMiniType>(
  path: string,
  schema: S,
  options: RequestOptions = {},
): Promise<z.output<S>> {
  const session = sessionStore.get();
  const isForm = options.body instanceof FormData;
  const headers: Record<string, string> = { accept: "application/json" };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (options.body !== undefined && !isForm) headers["content-type"] = "application/json";
  if (options.raw) headers["content-type"] = options.raw.type;

  const method = options.method ?? "GET";
  const response =
    isForm && options.onUploadProgress
      ? await sendWithProgress(path, method, headers, options.body as FormData, options.onUploadProgress)
      : await fetch(path, {
          method,
          headers,
          body:
            options.raw?.text ??
            (options.body === undefined
              ? undefined
              : isForm
                ? (options.body as FormData)
                : JSON.stringify(options.body)),
          signal: options.signal,
        }).then(async (answer) => ({
          status: answer.status,
          payload: answer.status === 204 ? undefined : await answer.json().catch(() => undefined),
        }));
  const payload = response.payload;
  if (response.status < 200 || response.status >= 300) {
    if (response.status === 401 && session) sessionStore.clear();
    const parsed = apiErrorSchema.safeParse(payload);
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data.message : `Request failed (${response.status})`,
      parsed.success ? parsed.data.issues : [],
    );
  }
  return checked(path, schema, payload);
}

/** A text the API answers (a CSV file), with the session's token; an error answer throws an `ApiError`. */
export async function apiText(path: string): Promise<string> {
  const session = sessionStore.get();
  const response = await fetch(path, { headers: session ? { authorization: `Bearer ${session.token}` } : {} });
  if (!response.ok) throw new ApiError(response.status, `Request failed (${response.status})`, []);
  return response.text();
}

/**
 * A server message (appErr) and a client or network message (serverErr) show apart
 * (docs/specification.md §Errors, loading and empty texts).
 */
export function splitError(error: unknown): { appErr: string | null; serverErr: string | null } {
  if (!error) return { appErr: null, serverErr: null };
  if (error instanceof ApiError) return { appErr: error.message, serverErr: null };
  return { appErr: null, serverErr: error instanceof Error ? error.message : String(error) };
}
