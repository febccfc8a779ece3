import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { HttpError } from "../http-error.ts";

/**
 * Keyset cursors over (timestamp desc, id desc). The timestamp travels as PostgreSQL's own text with microseconds,
 * so rows created within one millisecond are neither skipped nor repeated.
 */
export const cursorKey = (column: PgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(parts: unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** Exactly what cursorKey writes, and a real instant: anything else would reach PostgreSQL and fail there. */
export const cursorTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  .refine((value) => {
    const parsed = Date.parse(value);
    return !Number.isNaN(parsed) && new Date(parsed).toISOString().slice(0, 19) === value.slice(0, 19);
  });

/** The cursor shapes our lists hand out: (time, id), and (featured, time, id) for posts. */
export const cursorShapes = {
  timeId: z.tuple([cursorTime, z.uuid()]),
  featuredTimeId: z.tuple([z.boolean(), cursorTime, z.uuid()]),
  /**
   * Search: where the stretch of matches being read starts (its newer bound; null: the newest), then (rank, time,
   * id) within it. The stretch's other end is found again by the server, never taken from a cursor, so no cursor
   * can widen a stretch past SEARCH_WINDOW matches.
   */
  search: z.tuple([z.tuple([cursorTime, z.uuid()]).nullable(), z.number().min(0).max(1e6), cursorTime, z.uuid()]),
};

/** A cursor of the given shape, or 400: a cursor is opaque to clients, so any other value is a bad request. */
export function decodeCursor<T extends z.ZodType>(cursor: string, shape: T): z.infer<T> {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parts = undefined;
  }
  const parsed = shape.safeParse(parts);
  if (!parsed.success) throw new HttpError(400, "Invalid cursor");
  return parsed.data;
}

/** `(time, id) < (cursor time, cursor id)`, matching an index on (time desc, id desc). */
export function afterCursor(time: PgColumn, id: PgColumn, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [at, key] = decodeCursor(cursor, cursorShapes.timeId);
  return sql`(${time}, ${id}) < (${at}::timestamptz, ${key}::uuid)`;
}

/** Fetch `limit + 1` rows; the extra one only says whether there is a next page. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => unknown[]) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
