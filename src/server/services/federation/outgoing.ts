import type { Context } from "@fedify/fedify";
import { Announce, Article, Delete, PUBLIC_COLLECTION, Tombstone, Update } from "@fedify/fedify/vocab";
import type { Db } from "../../db/client.ts";
import { federationQueue } from "../../db/schema.ts";
import type { Deps } from "../deps.ts";
import { followersOf, SITE_ACTOR } from "./followers.ts";
import { articleOf, createOf, instant, personOf, publishedArticle } from "./objects.ts";

/** What happened to a post, for its followers on the fediverse. */
export interface PostActivity {
  type: "penchain:post";
  action: "create" | "update" | "delete";
  postId: string;
  authorId: string;
}

/** A user's name, handle, bio or photo changed: their followers' servers should show the new ones. */
export interface ActorUpdate {
  type: "penchain:actor";
  userId: string;
}

const typeOf = (message: unknown) =>
  typeof message === "object" && message !== null ? (message as { type?: unknown }).type : undefined;
export const isPostActivity = (message: unknown): message is PostActivity => typeOf(message) === "penchain:post";
export const isActorUpdate = (message: unknown): message is ActorUpdate => typeOf(message) === "penchain:actor";

/**
 * Queues a message for the fediverse in the caller's transaction (the one that changed the post or the user), so
 * it is never lost and never sent for a change that was rolled back; nothing is queued when the site does not
 * federate. One post's (or user's) messages are handled in the order queued.
 */
async function queueForFediverse(
  deps: { db: Pick<Db, "insert">; config: Pick<Deps["config"], "federation"> },
  message: PostActivity | ActorUpdate,
) {
  if (!deps.config.federation) return;
  const orderingKey = message.type === "penchain:post" ? postOrderingKey(message.postId) : `actor:${message.userId}`;
  await deps.db.insert(federationQueue).values({ message, orderingKey });
}

/** Queues an `Update` of a user's actor (a new name, handle, bio or photo). */
export const queueActorUpdate = (deps: Parameters<typeof queueForFediverse>[0], userId: string) =>
  queueForFediverse(deps, { type: "penchain:actor", userId });

/** Sends a user's actor as it is now to their followers' servers, which then show the new name, handle or photo. */
export async function deliverActorUpdate(ctx: Context<void>, db: Db, base: string, message: ActorUpdate) {
  const person = await personOf(ctx, db, base, message.userId);
  const followers = await followersOf(db, [message.userId]);
  if (!person?.id || followers.length === 0) return;
  const update = new Update({
    id: new URL(`#update-${Date.now()}`, person.id),
    actor: person.id,
    object: person,
    to: PUBLIC_COLLECTION,
  });
  await ctx.sendActivity({ identifier: message.userId }, followers, update, { preferSharedInbox: true });
}

/** One post's activities go out in the order they happened: its `Create`, then `Update`s, then `Delete`. */
export const postOrderingKey = (postId: string) => `post:${postId}`;

/** Queues a post's activity: callers queue only published posts' changes, so a draft never federates. */
export const queuePostActivity = (
  deps: Parameters<typeof queueForFediverse>[0],
  activity: Omit<PostActivity, "type">,
) => queueForFediverse(deps, { type: "penchain:post", ...activity });

/**
 * Sends a queued post activity: a new post goes to its author's followers as `Create` (and to the site's as the
 * site's `Announce` of it), an edit as `Update` and a deletion as `Delete` to both. A post no longer published when
 * its `Create` or `Update` comes up is not sent (its `Delete` follows).
 */
export async function deliverPostActivity(ctx: Context<void>, db: Db, base: string, message: PostActivity) {
  const author = { identifier: message.authorId };
  const options = {
    preferSharedInbox: true,
    orderingKey: postOrderingKey(message.postId),
    excludeBaseUris: [new URL(base)],
  };
  const articleId = ctx.getObjectUri(Article, { id: message.postId });
  if (message.action === "delete") {
    const everyone = await followersOf(db, [message.authorId, SITE_ACTOR]);
    const deletion = new Delete({
      id: new URL("#delete", articleId),
      actor: ctx.getActorUri(message.authorId),
      object: new Tombstone({ id: articleId }),
      to: PUBLIC_COLLECTION,
    });
    if (everyone.length > 0) await ctx.sendActivity(author, everyone, deletion, options);
    return;
  }
  const post = await publishedArticle(db, message.postId);
  if (!post) return;
  const article = articleOf(ctx, base, post);
  if (message.action === "update") {
    const everyone = await followersOf(db, [message.authorId, SITE_ACTOR]);
    const update = new Update({
      id: new URL(`#update-${post.updatedAt.getTime()}`, articleId),
      actor: ctx.getActorUri(post.userId),
      object: article,
      to: PUBLIC_COLLECTION,
      ccs: article.ccIds,
      updated: instant(post.updatedAt),
    });
    if (everyone.length > 0) await ctx.sendActivity(author, everyone, update, options);
    return;
  }
  const [authorsFollowers, siteFollowers] = await Promise.all([
    followersOf(db, [message.authorId]),
    followersOf(db, [SITE_ACTOR]),
  ]);
  if (authorsFollowers.length > 0)
    await ctx.sendActivity(author, authorsFollowers, createOf(ctx, article, post.userId), options);
  if (siteFollowers.length > 0) {
    const announce = new Announce({
      id: new URL("#announce", articleId),
      actor: ctx.getActorUri(SITE_ACTOR),
      object: articleId,
      to: PUBLIC_COLLECTION,
      ccs: [ctx.getFollowersUri(SITE_ACTOR)],
      published: article.published,
    });
    await ctx.sendActivity({ identifier: SITE_ACTOR }, siteFollowers, announce, options);
  }
}
