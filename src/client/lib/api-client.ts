import { apiErrorSchema } from "../../shared/schemas/error.ts";
import { sessionStore } from "../features/auth/session.ts";

/** The server answered with an error: `message` is its `{ message }`, shown to the user as appErr. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * Calls the API with the session's bearer token. A 401 ends the session, so guarded screens send the user to
 * /login. Network failures reject with the browser's own error (the spec's serverErr).
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const session = sessionStore.get();
  const isForm = options.body instanceof FormData;
  const headers: Record<string, string> = { accept: "application/json" };
  if (session) headers.authorization = `Bearer ${session.token}`;
  if (options.body !== undefined && !isForm) headers["content-type"] = "application/json";

  const response = await fetch(path, {
    method: options.method ?? "GET",
    headers,
    body: options.body === undefined ? undefined : isForm ? (options.body as FormData) : JSON.stringify(options.body),
    signal: options.signal,
  });
  const payload = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && session) sessionStore.clear();
    const parsed = apiErrorSchema.safeParse(payload);
    throw new ApiError(
      response.status,
      parsed.success ? parsed.data.message : `Request failed (${response.status})`,
      parsed.success ? parsed.data.issues : [],
    );
  }
  return payload as T;
}

/** The spec shows a server message (appErr) and a client or network message (serverErr) separately. */
export function splitError(error: unknown): { appErr: string | null; serverErr: string | null } {
  if (!error) return { appErr: null, serverErr: null };
  if (error instanceof ApiError) return { appErr: error.message, serverErr: null };
  return { appErr: null, serverErr: error instanceof Error ? error.message : String(error) };
}
