import { asc, eq, or, sql } from "drizzle-orm";
import type { BlockedDomain } from "#shared/schemas/federation.ts";
import type { Db } from "../../db/client.ts";
import { blockedDomains, remoteFollowers, remoteReactions, remoteReplies } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../auth/auth-user.ts";
import type { Deps } from "../deps.ts";
import { NOTHING_PUBLIC } from "../reads/tags.ts";

/** A host name as compared and stored: lower case, without the trailing dot of a fully qualified name. */
export const normalHost = (hostname: string) => hostname.toLowerCase().replace(/\.+$/, "");

/** The normal host of an address. */
export const hostOf = (uri: string) => normalHost(new URL(uri).hostname);

/** Whether activities from this host (a name without port) are refused: a blocked domain blocks its subdomains. */
export async function isBlockedDomain(db: Db, hostname: string): Promise<boolean> {
  const host = normalHost(hostname);
  const [row] = await db
    .select({ domain: blockedDomains.domain })
    .from(blockedDomains)
    .where(or(eq(blockedDomains.domain, host), sql`${host} like '%.' || ${blockedDomains.domain}`))
    .limit(1);
  return Boolean(row);
}

/** Rows whose `domain` column is the domain or one of its subdomains. */
const within = (
  column: typeof remoteFollowers.domain | typeof remoteReplies.domain | typeof remoteReactions.domain,
  domain: string,
) => or(eq(column, domain), sql`${column} like ${`%.${domain}`}`);

/** Blocks a domain: its activities are refused from now on, and its followers, replies and reactions dropped. */
export async function blockDomain(
  { db, changed }: Pick<Deps, "db" | "changed">,
  admin: AuthUser,
  domain: string,
  ownHostname: string,
) {
  if (domain === ownHostname) throw new HttpError(400, "This is the site's own domain");
  // What the fediverse sent is read apart from the cached public reads.
  changed(NOTHING_PUBLIC);
  await db.transaction(async (tx) => {
    await tx.insert(blockedDomains).values({ domain, blockedBy: admin.id }).onConflictDoNothing();
    await tx.delete(remoteFollowers).where(within(remoteFollowers.domain, domain));
    await tx.delete(remoteReplies).where(within(remoteReplies.domain, domain));
    await tx.delete(remoteReactions).where(within(remoteReactions.domain, domain));
  });
}

export async function unblockDomain({ db, changed }: Pick<Deps, "db" | "changed">, domain: string) {
  changed(NOTHING_PUBLIC);
  await db.delete(blockedDomains).where(eq(blockedDomains.domain, domain));
}

export async function listBlockedDomains({ db }: Pick<Deps, "db">): Promise<BlockedDomain[]> {
  const rows = await db.select().from(blockedDomains).orderBy(asc(blockedDomains.domain));
  return rows.map((row) => ({ domain: row.domain, createdAt: row.createdAt.toISOString() }));
}
