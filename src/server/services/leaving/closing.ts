import fs from "node:fs";
import { verify } from "@node-rs/argon2";
import { and, eq, isNotNull, isNull, lt, ne, or, sql } from "drizzle-orm";
import {
  CLOSING_GRACE_DAYS,
  type CloseAccountInput,
  type ClosingState,
  FORMER_MEMBER,
} from "#shared/schemas/leaving.ts";
import type { Db } from "../../db/client.ts";
import {
  apiTokens,
  approvedRepliers,
  dataExports,
  digests,
  emailSubscriptions,
  follows,
  handleAliases,
  mailOutbox,
  mutedWords,
  notificationActors,
  notificationSettings,
  notifications,
  oneTimeTokens,
  posts,
  postViews,
  profileViews,
  reactions,
  reports,
  userBlocks,
  userMutes,
  users,
  webhookEndpoints,
} from "../../db/schema.ts";
import { HttpError, validationError } from "../../http-error.ts";
import { periodic } from "../../infra/periodic.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { queueActorDelete } from "../core/federation-queue.ts";
import { removeImage } from "../core/images.ts";
import { announceSessionsEnded } from "../core/sessions.ts";
import { EVERYTHING, NOTHING_PUBLIC } from "../core/tags.ts";
import { recordEvents } from "../webhooks/events.ts";
import { followEvents } from "../webhooks/follow-events.ts";
import { postsDeleted } from "../webhooks/post-events.ts";
import { archiveFile } from "./exports.ts";
import { closedMail, closingCancelledMail, closingMail } from "./mails.ts";

const DAY_MS = 24 * 60 * 60_000;
const closesAt = (closingAt: Date) => new Date(closingAt.getTime() + CLOSING_GRACE_DAYS * DAY_MS);

/**
 * "Close my account", with the password: the account is erased 14 days later unless its owner signs in before.
 * Every session ends at once (on every instance), and the owner is told by mail when it will happen and how to
 * stop it. The site's only admin cannot leave it without one.
 */
export async function requestClosing(
  deps: Pick<Deps, "db" | "mailer" | "config" | "bus" | "changed">,
  user: AuthUser,
  input: CloseAccountInput,
): Promise<ClosingState> {
  if (!(await verify(user.passwordHash, input.password).catch(() => false)))
    throw validationError([{ path: ["password"], message: "Password is incorrect" }]);
  if (user.isAdmin) {
    const others = await deps.db.$count(users, and(eq(users.isAdmin, true), ne(users.id, user.id)));
    if (others === 0) throw new HttpError(409, "You are the site's only admin: make someone else an admin first.");
  }
  deps.changed(NOTHING_PUBLIC);
  const now = new Date();
  await deps.db
    .update(users)
    .set({
      closingAt: now,
      closingKeepsPosts: input.keepPosts,
      tokenVersion: sql`${users.tokenVersion} + 1`,
      updatedAt: now,
    })
    .where(eq(users.id, user.id));
  announceSessionsEnded(deps.bus, user.id);
  await deps.mailer.queue({
    to: user.email,
    ...closingMail(user.firstName, closesAt(now), input.keepPosts, deps.config.publicUrl),
  });
  return { closesAt: closesAt(now).toISOString() };
}

/**
 * Erases one account whose 14 days are over, in one transaction: what is the person's goes (profile, e-mail, wallet,
 * password, likes, follows both ways, blocks, mutes, notifications, subscriptions, drafts, and their posts unless they
 * chose to keep them); what others keep stays, under "A former member": comments, kept posts, payments for the
 * books, reports' decisions. The row stays, empty of the person, for those to point to. Its fediverse followers'
 * servers are sent `Delete` of the actor. Answers whether it erased anything (another instance may have first).
 */
export async function eraseAccount(
  deps: Pick<Deps, "db" | "config" | "mailer" | "storage" | "log" | "changed">,
  userId: string,
) {
  const images: { url: string; kind: "cover" | "photo" }[] = [];
  const files: string[] = [];
  const erased = await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.closingAt), isNull(users.closedAt)))
      .for("update", { skipLocked: true });
    if (!user) return false;
    const archives = await tx.select({ id: dataExports.id }).from(dataExports).where(eq(dataExports.userId, userId));
    for (const archive of archives) files.push(archiveFile(deps.config, archive.id));
    // Its own webhooks and tokens go first, so none of what follows is sent to the person who left.
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
    await tx.delete(apiTokens).where(eq(apiTokens.userId, userId));
    const gone = await tx
      .delete(posts)
      .where(and(eq(posts.userId, userId), user.closingKeepsPosts ? ne(posts.status, "published") : undefined))
      .returning({ id: posts.id, image: posts.image, status: posts.status, moderation: posts.moderation });
    for (const post of gone) if (post.image) images.push({ url: post.image, kind: "cover" });
    if (user.profilePhoto) images.push({ url: user.profilePhoto, kind: "photo" });
    await postsDeleted(
      tx,
      userId,
      gone.filter((post) => post.status === "published" && post.moderation === "visible").map((post) => post.id),
    );
    const ended = await erasePersonalRows(tx, user);
    await tx
      .update(users)
      .set({
        ...FORMER_MEMBER,
        email: `closed-${userId}@closed.invalid`,
        handle: `former-${userId.replace(/-/g, "").slice(0, 12)}`,
        bio: "",
        profilePhoto: null,
        walletAddress: null,
        walletVerifiedAt: null,
        // No password hashes to this: nobody signs in as a closed account.
        passwordHash: "!",
        isAdmin: false,
        isModerator: false,
        holdFirstComments: false,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        closingAt: null,
        closedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(users.id, userId));
    // Others' followers and subscribers lists changed: told once the account shows as a former member.
    await followEvents(tx, "follower.deleted", ended.follows);
    await recordEvents(
      tx,
      "subscriber.deleted",
      ended.subscriptions.map((row) => ({ ownerId: row.authorId, data: () => row })),
    );
    await queueActorDelete({ db: tx, config: deps.config }, userId);
    // The last mail to the address, written in the same transaction as its erasure.
    await deps.mailer.enqueue({ to: user.email, ...closedMail(user.firstName) }, tx, false);
    return true;
  });
  if (!erased) return false;
  // The name is on every list and page that shows what the account wrote.
  deps.changed(EVERYTHING);
  deps.mailer.drain();
  for (const image of images)
    await removeImage(deps.storage, image.url, image.kind).catch((error) =>
      deps.log.warn({ err: error, url: image.url }, "a closed account's image could not be removed"),
    );
  for (const file of files) fs.rmSync(file, { force: true });
  deps.log.info({ userId }, "a closed account was erased");
  return true;
}

/** The rows that are the person's alone; answers the follows and the confirmed subscriptions that ended. */
async function erasePersonalRows(tx: Db, user: AuthUser) {
  const id = user.id;
  const endedFollows = await tx
    .delete(follows)
    .where(or(eq(follows.followerId, id), eq(follows.followeeId, id)))
    .returning({ followerId: follows.followerId, followeeId: follows.followeeId });
  await tx.delete(userBlocks).where(or(eq(userBlocks.blockerId, id), eq(userBlocks.blockedId, id)));
  await tx.delete(userMutes).where(or(eq(userMutes.muterId, id), eq(userMutes.mutedId, id)));
  await tx.delete(mutedWords).where(eq(mutedWords.userId, id));
  await tx.delete(profileViews).where(or(eq(profileViews.profileId, id), eq(profileViews.viewerId, id)));
  await tx.delete(reactions).where(eq(reactions.userId, id));
  // Who viewed a post is kept for an hour's dedup under the viewer's id.
  await tx.delete(postViews).where(eq(postViews.viewerKey, `u:${id}`));
  await tx.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, id));
  await tx.delete(notificationActors).where(eq(notificationActors.actorId, id));
  await tx.delete(notifications).where(eq(notifications.userId, id));
  await tx.delete(notificationSettings).where(eq(notificationSettings.userId, id));
  await tx.delete(digests).where(eq(digests.userId, id));
  await tx.delete(handleAliases).where(eq(handleAliases.userId, id));
  await tx.delete(approvedRepliers).where(eq(approvedRepliers.userId, id));
  const subscriptions = await tx
    .delete(emailSubscriptions)
    .where(or(eq(emailSubscriptions.authorId, id), eq(emailSubscriptions.email, user.email.toLowerCase())))
    .returning({
      id: emailSubscriptions.id,
      authorId: emailSubscriptions.authorId,
      email: emailSubscriptions.email,
      status: emailSubscriptions.status,
    });
  await tx.update(reports).set({ reporterId: null }).where(eq(reports.reporterId, id));
  await tx.delete(dataExports).where(eq(dataExports.userId, id));
  await tx.delete(mailOutbox).where(and(eq(mailOutbox.to, user.email), isNull(mailOutbox.sentAt)));
  return {
    follows: endedFollows,
    subscriptions: subscriptions.flatMap(({ status, ...row }) => (status === "active" ? [row] : [])),
  };
}

/** The accounts whose 14 days are over. */
export async function eraseClosedAccounts(deps: Parameters<typeof eraseAccount>[0], now = new Date()) {
  const due = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.closingAt), lt(users.closingAt, new Date(now.getTime() - CLOSING_GRACE_DAYS * DAY_MS))));
  let erased = 0;
  for (const user of due) if (await eraseAccount(deps, user.id)) erased++;
  return erased;
}

/** Looks for accounts to erase once an hour, on every instance (a row locked by another is skipped). */
export const createClosingJob = (deps: Parameters<typeof eraseAccount>[0]) =>
  periodic(() => eraseClosedAccounts(deps), {
    everyMs: 60 * 60_000,
    onError: (error) => deps.log.warn({ err: error }, "erasing closed accounts failed"),
  });

/** Signing in (or asking) during the 14 days: the account stays, and its owner is told so. */
export async function keepAccount(
  deps: Pick<Deps, "db" | "mailer" | "changed">,
  user: AuthUser,
): Promise<ClosingState> {
  deps.changed(NOTHING_PUBLIC);
  if (!user.closingAt) return { closesAt: null };
  const [kept] = await deps.db
    .update(users)
    .set({ closingAt: null, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNotNull(users.closingAt)))
    .returning({ id: users.id });
  if (kept) await deps.mailer.queue({ to: user.email, ...closingCancelledMail(user.firstName) });
  return { closesAt: null };
}
