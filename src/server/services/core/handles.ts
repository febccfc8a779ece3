import { and, desc, eq, gt, inArray, lt, notInArray, sql } from "drizzle-orm";
import { firstFreeHandle, HANDLE_TAKEN_MESSAGE, handleStem } from "#shared/handles.ts";
import type { Db } from "../../db/client.ts";
import { handleAliases, users } from "../../db/schema.ts";
import { validationError } from "../../http-error.ts";

type Tx = Pick<Db, "execute" | "select" | "insert" | "update" | "delete">;

/** An earlier handle keeps resolving to its user this long, and each user keeps this many: then anyone may take it. */
export const ALIAS_LIFETIME_MS = 180 * 24 * 3600_000;
export const ALIASES_KEPT = 3;
const aliasLive = () => gt(handleAliases.createdAt, new Date(Date.now() - ALIAS_LIFETIME_MS));

/** Serialises the choice of handles, so two registrations of one name cannot pick the same one. */
const lockHandles = (tx: Tx) => tx.execute(sql`select pg_advisory_xact_lock(7337021)`);

/** Every handle in use (a user's or an earlier one kept as an alias) that starts with `stem`. */
async function handlesStartingWith(tx: Tx, stem: string): Promise<Set<string>> {
  const [current, aliases] = await Promise.all([
    tx.select({ handle: users.handle }).from(users).where(sql`left(${users.handle}, ${stem.length}) = ${stem}`),
    tx
      .select({ handle: handleAliases.handle })
      .from(handleAliases)
      .where(and(sql`left(${handleAliases.handle}, ${stem.length}) = ${stem}`, aliasLive())),
  ]);
  return new Set([...current, ...aliases].map((row) => row.handle));
}

/** A new user's handle, from their name: `ada-lovelace`, then `ada-lovelace-2`. Runs inside the caller's transaction. */
export async function newHandle(tx: Tx, firstName: string, lastName: string): Promise<string> {
  await lockHandles(tx);
  const stem = handleStem(firstName, lastName);
  return firstFreeHandle(stem, await handlesStartingWith(tx, stem));
}

/**
 * Gives a user another handle. The old one is kept as an alias: it goes on resolving to them for followers who
 * knew it, and nobody else can take it, for ALIAS_LIFETIME_MS and among the user's ALIASES_KEPT latest (so nobody
 * can hold every name by changing handles). Taking back one's own earlier handle is allowed.
 */
export async function changeHandle(tx: Tx, userId: string, from: string, to: string): Promise<void> {
  if (from === to) return;
  await lockHandles(tx);
  const owner = await userIdByHandle(tx, to);
  if (owner && owner !== userId) throw validationError([{ path: ["handle"], message: HANDLE_TAKEN_MESSAGE }], 409);
  await tx.delete(handleAliases).where(inArray(handleAliases.handle, [to, from]));
  await tx.insert(handleAliases).values({ handle: from, userId });
  await tx.update(users).set({ handle: to }).where(eq(users.id, userId));
  const kept = tx
    .select({ handle: handleAliases.handle })
    .from(handleAliases)
    .where(eq(handleAliases.userId, userId))
    .orderBy(desc(handleAliases.createdAt))
    .limit(ALIASES_KEPT);
  await tx.delete(handleAliases).where(and(eq(handleAliases.userId, userId), notInArray(handleAliases.handle, kept)));
  await tx.delete(handleAliases).where(lt(handleAliases.createdAt, new Date(Date.now() - ALIAS_LIFETIME_MS)));
}

/** Whose handle this is, now or earlier; null when nobody's. */
export async function userIdByHandle(db: Pick<Db, "select">, handle: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: users.id })
    .from(users)
    .where(eq(users.handle, handle))
    .unionAll(
      db
        .select({ userId: handleAliases.userId })
        .from(handleAliases)
        .where(and(eq(handleAliases.handle, handle), aliasLive())),
    );
  return row?.userId ?? null;
}
