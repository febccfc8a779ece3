import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { HttpError } from "../http-error.ts";

/**
 * Keyset cursors over (timestamp desc, id desc). The timestamp travels as PostgreSQL's own text with microseconds,
 * so rows created within one millisecond are neither skipped nor repeated.
 */
export const cursorKey = (column: PgColumn) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export function encodeCursor(parts: (string | boolean)[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

export function decodeCursor(cursor: string, length: number): (string | boolean)[] {
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parts) && parts.length === length) return parts;
  } catch {}
  throw new HttpError(400, "Invalid cursor");
}

/** `(time, id) < (cursor time, cursor id)`, matching an index on (time desc, id desc). */
export function afterCursor(time: PgColumn, id: PgColumn, cursor: string | undefined): SQL | undefined {
  if (!cursor) return undefined;
  const [at, key] = decodeCursor(cursor, 2);
  return sql`(${time}, ${id}) < (${String(at)}::timestamptz, ${String(key)}::uuid)`;
}

/** Fetch `limit + 1` rows; the extra one only says whether there is a next page. */
export function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => (string | boolean)[]) {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
