import type { Recipient } from "@fedify/fedify/vocab";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { remoteFollowers } from "../../db/schema.ts";
import { hostOf } from "./domains.ts";

/** A local actor: a user's id, or the site's own actor. */
export { SITE_ACTOR } from "../core/federation-queue.ts";

export interface RemoteFollower {
  uri: string;
  inbox: string;
  sharedInbox: string | null;
}

export async function addFollower(db: Pick<Db, "insert">, actor: string, follower: RemoteFollower) {
  await db
    .insert(remoteFollowers)
    .values({
      actor,
      followerUri: follower.uri,
      inbox: follower.inbox,
      sharedInbox: follower.sharedInbox,
      domain: hostOf(follower.uri),
    })
    .onConflictDoUpdate({
      target: [remoteFollowers.actor, remoteFollowers.followerUri],
      set: { inbox: follower.inbox, sharedInbox: follower.sharedInbox },
    });
}

/** Answers whether there was such a follower. */
export async function removeFollower(db: Pick<Db, "delete">, actor: string, followerUri: string): Promise<boolean> {
  const removed = await db
    .delete(remoteFollowers)
    .where(and(eq(remoteFollowers.actor, actor), eq(remoteFollowers.followerUri, followerUri)))
    .returning({ uri: remoteFollowers.followerUri });
  return removed.length > 0;
}

/** An account gone from its server (or an inbox that answers 410) follows nobody here any more. */
export async function forgetFollower(db: Pick<Db, "delete">, where: { uri: string } | { inbox: string }) {
  await db
    .delete(remoteFollowers)
    .where("uri" in where ? eq(remoteFollowers.followerUri, where.uri) : eq(remoteFollowers.inbox, where.inbox));
}

/** Everyone following these local actors, each once, as Fedify's recipients. */
export async function followersOf(db: Pick<Db, "selectDistinctOn">, actors: string[]): Promise<Recipient[]> {
  const rows = await db
    .selectDistinctOn([remoteFollowers.followerUri], {
      uri: remoteFollowers.followerUri,
      inbox: remoteFollowers.inbox,
      sharedInbox: remoteFollowers.sharedInbox,
    })
    .from(remoteFollowers)
    .where(inArray(remoteFollowers.actor, actors));
  return rows.map((row) => ({
    id: new URL(row.uri),
    inboxId: new URL(row.inbox),
    endpoints: row.sharedInbox ? { sharedInbox: new URL(row.sharedInbox) } : null,
  }));
}

export async function countFollowers(db: Pick<Db, "select">, actor: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(remoteFollowers)
    .where(eq(remoteFollowers.actor, actor));
  return row?.count ?? 0;
}
