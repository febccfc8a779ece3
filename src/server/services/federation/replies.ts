import { and, asc, count, desc, eq, or } from "drizzle-orm";
import type { PendingReply, PostFediverse, RemoteReply } from "#shared/schemas/federation.ts";
import { plainText } from "#shared/text.ts";
import type { Db } from "../../db/client.ts";
import { approvedRepliers, posts, remoteReactions, remoteReplies } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { isPublished, requirePublished } from "../core/post-queries.ts";
import { sanitizeRemoteHtml } from "../core/sanitize.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { screen } from "../moderation/filter.ts";
import { HELD_FOR_REVIEW, heldFor, isHeldForReview, queueHeld } from "../moderation/reports.ts";
import { domainSeverity, hostOf } from "./domains.ts";

/** A reply longer than this is cut (a toot is 500 characters; a long reply a few thousand). */
const MAX_REPLY_HTML = 20_000;
export const REPLY_NOT_FOUND = "Reply not found";

type ReplyRow = typeof remoteReplies.$inferSelect;

/** An address a reader's browser may open or load: http(s) only (a remote `javascript:` link is dropped). */
function webAddress(url: string | null): string | null {
  const parsed = url ? URL.parse(url) : null;
  return parsed && /^https?:$/.test(parsed.protocol) ? parsed.href.slice(0, 2000) : null;
}

const toReply = (row: ReplyRow): RemoteReply => ({
  id: row.id,
  postId: row.postId,
  authorName: row.authorName,
  authorHandle: row.authorHandle,
  authorAvatar: row.authorAvatar,
  url: row.url,
  content: row.content,
  status: row.status,
  publishedAt: row.publishedAt.toISOString(),
});

export interface IncomingReply {
  uri: string;
  actorUri: string;
  authorName: string;
  authorHandle: string;
  authorAvatar: string | null;
  url: string | null;
  html: string;
  publishedAt: Date | null;
}

/**
 * A reply to a post from the fediverse. Shown at once when its author let the account reply before; otherwise it
 * waits for the post's author. A reply delivered again (same id) is the same reply; answers whether it is new.
 */
export async function receiveReply(db: Db, postId: string, reply: IncomingReply): Promise<RemoteReply | null> {
  const [post] = await db
    .select({ authorId: posts.userId })
    .from(posts)
    .where(and(eq(posts.id, postId), isPublished));
  if (!post) return null;
  // A reply with a refused term is not kept; one the filter holds waits for a moderator.
  const verdict = await screen({ db }, { reply: plainText(reply.html.slice(0, MAX_REPLY_HTML)) });
  if (verdict.action === "refuse") return null;
  const held = isHeldForReview(verdict, null);
  // A silenced domain's replies always wait for the post's author.
  const silenced = (await domainSeverity(db, hostOf(reply.actorUri))) === "silence";
  const [approved] = await db
    .select({ actorUri: approvedRepliers.actorUri })
    .from(approvedRepliers)
    .where(and(eq(approvedRepliers.userId, post.authorId), eq(approvedRepliers.actorUri, reply.actorUri)));
  const [row] = await db
    .insert(remoteReplies)
    .values({
      postId,
      uri: reply.uri,
      actorUri: reply.actorUri,
      domain: hostOf(reply.actorUri),
      // Direction marks could make a name read as another's.
      authorName: reply.authorName.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").slice(0, 200),
      authorHandle: reply.authorHandle.slice(0, 300),
      authorAvatar: webAddress(reply.authorAvatar),
      url: webAddress(reply.url) ?? webAddress(reply.uri),
      content: sanitizeRemoteHtml(reply.html.slice(0, MAX_REPLY_HTML)),
      status: approved && !silenced ? "approved" : "pending",
      ...(held ? HELD_FOR_REVIEW : {}),
      publishedAt: reply.publishedAt ?? new Date(),
    })
    .onConflictDoNothing()
    .returning();
  if (row && held)
    await queueHeld({ db }, { kind: "remote-reply", id: row.id, subjectId: null }, heldFor(null, verdict.terms));
  return row ? toReply(row) : null;
}

/** An edit of a reply by the account that wrote it. */
export async function editReply(db: Db, uri: string, actorUri: string, html: string) {
  await db
    .update(remoteReplies)
    .set({ content: sanitizeRemoteHtml(html.slice(0, MAX_REPLY_HTML)), updatedAt: new Date() })
    .where(and(eq(remoteReplies.uri, uri), eq(remoteReplies.actorUri, actorUri)));
}

/** A reply its account deleted. */
export async function forgetReply(db: Db, uri: string, actorUri: string) {
  await db.delete(remoteReplies).where(and(eq(remoteReplies.uri, uri), eq(remoteReplies.actorUri, actorUri)));
}

export async function addReaction(
  db: Db,
  reaction: { postId: string; actorUri: string; kind: "like" | "announce"; activityUri: string | null },
) {
  const [post] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, reaction.postId), isPublished));
  if (!post) return;
  await db
    .insert(remoteReactions)
    .values({ ...reaction, domain: hostOf(reaction.actorUri) })
    .onConflictDoNothing();
}

/** An Undo of a Like or Announce: by its activity's id, or (when the Undo names none) by who and what. */
export async function removeReaction(
  db: Db,
  reaction: { actorUri: string; kind: "like" | "announce"; activityUri: string | null; postId: string | null },
) {
  const which = [
    ...(reaction.activityUri ? [eq(remoteReactions.activityUri, reaction.activityUri)] : []),
    ...(reaction.postId ? [eq(remoteReactions.postId, reaction.postId)] : []),
  ];
  if (which.length === 0) return;
  await db
    .delete(remoteReactions)
    .where(and(eq(remoteReactions.actorUri, reaction.actorUri), eq(remoteReactions.kind, reaction.kind), or(...which)));
}

/** What the fediverse sent back to a post: approved replies, oldest first, and its likes and boosts. */
export async function postFediverse({ db }: Pick<Deps, "db">, postId: string): Promise<PostFediverse> {
  await requirePublished({ db }, postId);
  const [replies, reactions] = await Promise.all([
    db
      .select()
      .from(remoteReplies)
      .where(
        and(
          eq(remoteReplies.postId, postId),
          eq(remoteReplies.status, "approved"),
          eq(remoteReplies.moderation, "visible"),
        ),
      )
      .orderBy(asc(remoteReplies.publishedAt))
      .limit(200),
    db
      .select({ kind: remoteReactions.kind, count: count() })
      .from(remoteReactions)
      .where(eq(remoteReactions.postId, postId))
      .groupBy(remoteReactions.kind),
  ]);
  const countOf = (kind: "like" | "announce") => reactions.find((row) => row.kind === kind)?.count ?? 0;
  return { replies: replies.map(toReply), likes: countOf("like"), boosts: countOf("announce") };
}

/** Replies waiting for this author (every author's, for an admin), newest first. */
export async function pendingReplies({ db }: Pick<Deps, "db">, user: AuthUser): Promise<PendingReply[]> {
  const rows = await db
    .select({ reply: remoteReplies, postTitle: posts.title })
    .from(remoteReplies)
    .innerJoin(posts, eq(posts.id, remoteReplies.postId))
    .where(and(eq(remoteReplies.status, "pending"), user.isAdmin ? undefined : eq(posts.userId, user.id)))
    .orderBy(desc(remoteReplies.createdAt))
    .limit(100);
  return rows.map((row) => ({ ...toReply(row.reply), postTitle: row.postTitle }));
}

/** A reply its post's author (or an admin) may approve or remove. */
async function ownReply(db: Db, user: AuthUser, id: string) {
  const [row] = await db
    .select({ reply: remoteReplies, authorId: posts.userId })
    .from(remoteReplies)
    .innerJoin(posts, eq(posts.id, remoteReplies.postId))
    .where(eq(remoteReplies.id, id));
  if (!row) throw new HttpError(404, REPLY_NOT_FOUND);
  if (row.authorId !== user.id && !user.isAdmin)
    throw new HttpError(403, "Only the post's author or an admin can do this");
  return row;
}

/** Shows a waiting reply, and lets its account reply to this author without waiting from now on. */
export async function approveReply(
  { db, changed }: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  id: string,
): Promise<RemoteReply> {
  const { reply, authorId } = await ownReply(db, user, id);
  // Replies from the fediverse are read apart from the cached public reads.
  changed(NOTHING_PUBLIC);
  return db.transaction(async (tx) => {
    await tx.insert(approvedRepliers).values({ userId: authorId, actorUri: reply.actorUri }).onConflictDoNothing();
    const [row] = await tx
      .update(remoteReplies)
      .set({ status: "approved", updatedAt: new Date() })
      .where(eq(remoteReplies.id, id))
      .returning();
    return toReply(row as ReplyRow);
  });
}

export async function removeReply(
  { db, changed }: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  id: string,
): Promise<void> {
  await ownReply(db, user, id);
  changed(NOTHING_PUBLIC);
  await db.delete(remoteReplies).where(eq(remoteReplies.id, id));
}
