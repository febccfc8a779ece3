import { asc, eq, or, sql } from "drizzle-orm";
import type { BlockedDomain } from "#shared/schemas/federation.ts";
import type { Db } from "../../db/client.ts";
import { blockedDomains, remoteFollowers, remoteReactions, remoteReplies } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";

/** A host name as compared and stored: lower case, without the trailing dot of a fully qualified name. */
export const normalHost = (hostname: string) => hostname.toLowerCase().replace(/\.+$/, "");

/** The normal host of an address. */
export const hostOf = (uri: string) => normalHost(new URL(uri).hostname);

/** How this host (a name without port) is blocked, if it is: a blocked domain blocks its subdomains, the strictest wins. */
export async function domainSeverity(db: Db, hostname: string): Promise<"suspend" | "silence" | null> {
  const host = normalHost(hostname);
  const rows = await db
    .select({ severity: blockedDomains.severity })
    .from(blockedDomains)
    .where(or(eq(blockedDomains.domain, host), sql`${host} like '%.' || ${blockedDomains.domain}`));
  if (rows.some((row) => row.severity === "suspend")) return "suspend";
  return rows.length > 0 ? "silence" : null;
}

/** Whether activities from this host are refused (a suspended domain; a silenced one is let in, its replies held). */
export const isBlockedDomain = async (db: Db, hostname: string) => (await domainSeverity(db, hostname)) === "suspend";

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
  level: { severity: "silence" | "suspend"; publicComment?: string } = { severity: "suspend" },
) {
  if (domain === ownHostname) throw new HttpError(400, "This is the site's own domain");
  // What the fediverse sent is read apart from the cached public reads.
  changed(NOTHING_PUBLIC);
  await db.transaction(async (tx) => {
    const values = { severity: level.severity, publicComment: level.publicComment ?? "" };
    await tx
      .insert(blockedDomains)
      .values({ domain, blockedBy: admin.id, ...values })
      .onConflictDoUpdate({ target: blockedDomains.domain, set: values });
    if (level.severity !== "suspend") return;
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
  return rows.map((row) => ({
    domain: row.domain,
    severity: row.severity === "silence" ? ("silence" as const) : ("suspend" as const),
    createdAt: row.createdAt.toISOString(),
  }));
}
