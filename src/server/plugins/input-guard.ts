import type { FastifyInstance } from "fastify";
import { validationError } from "../http-error.ts";

const MESSAGE = "Text must not contain NUL characters or broken Unicode";

/** The path of the first string (key or value) PostgreSQL could not store: a NUL byte or an unpaired surrogate. */
export function findBadText(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === "string") return value.includes("\u0000") || !value.isWellFormed() ? path : null;
  if (typeof value !== "object" || value === null) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = findBadText(key, [...path, key]) ?? findBadText(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/** Throws the API's 400 when any string in `value` is text no column can hold. */
export function assertCleanText(value: unknown) {
  const path = findBadText(value);
  if (path) throw validationError([{ path, message: MESSAGE }]);
}

/**
 * Before any schema runs, every string of the query, the route parameters and a JSON body is checked once, so no
 * route can pass such text on to the database (multipart fields are checked where they are read).
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook("preValidation", async (request) => {
    assertCleanText(request.query);
    assertCleanText(request.params);
    if (!request.isMultipart()) assertCleanText(request.body);
  });
}
