import { and, count, eq, gt, or } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { posts } from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import type { AuthUser } from "./auth-user.ts";
import type { Deps } from "./deps.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A link in plain text: an address with a scheme, or one starting with www. */
export const LINK = /\b(?:https?:\/\/|www\.)\S/i;

export const NO_LINKS_YET =
  "New accounts cannot post links yet: verify your e-mail address, and links are yours a day after you joined.";

/**
 * Spam comes from fresh accounts: one younger than a day or not verified puts no links in comments, names or bios,
 * and publishes only a few posts a day. Moderators and admins are trusted.
 */
export const isNewAccount = (user: AuthUser, now = Date.now()) =>
  !user.isAdmin && !user.isModerator && (!user.isAccountVerified || now - user.createdAt.getTime() < DAY_MS);

/** Refuses a link in any of `fields` from a new account (every account is, when it registers), naming the field. */
export function refuseLinksFromNewAccounts(user: AuthUser | null, fields: Record<string, string | undefined>) {
  if (user && !isNewAccount(user)) return;
  const field = Object.entries(fields).find(([, text]) => text && LINK.test(text))?.[0];
  if (field) throw validationError([{ path: [field], message: NO_LINKS_YET }]);
}

/** Whether a new account published its day's posts already (written, or gone out as scheduled, within the day). */
export async function pastTheLimit(tx: Db, config: Deps["config"], author: AuthUser) {
  if (!isNewAccount(author)) return false;
  const since = new Date(Date.now() - DAY_MS);
  const [row] = await tx
    .select({ published: count() })
    .from(posts)
    .where(
      and(
        eq(posts.userId, author.id),
        eq(posts.status, "published"),
        or(gt(posts.createdAt, since), gt(posts.publishedAt, since)),
      ),
    );
  return (row?.published ?? 0) >= config.newAccountPostsPerDay;
}

/** A new account's post beyond the day's few is refused, with when it may publish again. */
export async function limitNewAccountPosts(deps: Pick<Deps, "db" | "config">, user: AuthUser) {
  if (await pastTheLimit(deps.db, deps.config, user)) throw new HttpError(429, newAccountLimit(deps.config));
}

/** Why a new account's post waits: its day's few are published. */
export function newAccountLimit(config: Pick<Deps["config"], "newAccountPostsPerDay">) {
  const allowed = config.newAccountPostsPerDay;
  return `New accounts can publish ${allowed} ${allowed === 1 ? "post" : "posts"} a day. Verify your e-mail address and come back tomorrow for more.`;
}
