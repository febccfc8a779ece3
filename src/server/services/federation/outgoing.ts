import type { Context } from "@fedify/fedify";
import { Announce, Article, Delete, Flag, isActor, PUBLIC_COLLECTION, Tombstone, Update } from "@fedify/fedify/vocab";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { remoteFollowers, remoteReplies } from "../../db/schema.ts";
import {
  type ActorDelete,
  type ActorUpdate,
  type FlagForward,
  type PostActivity,
  postOrderingKey,
} from "../core/federation-queue.ts";
import { instant } from "../provenance/article.ts";
import { followersOf, SITE_ACTOR } from "./followers.ts";
import { articleOf, createOf, personOf, publishedArticle } from "./objects.ts";

/**
 * Forwards a report of a reply to the server it came from, as Mastodon does: a `Flag` from the site's actor naming
 * the account and the reply, with the rule and the reader's note, never the reader.
 */
export async function deliverFlag(ctx: Context<void>, db: Db, message: FlagForward) {
  const [reply] = await db
    .select({ uri: remoteReplies.uri, actorUri: remoteReplies.actorUri })
    .from(remoteReplies)
    .where(eq(remoteReplies.id, message.replyId));
  if (!reply) return;
  const account = await ctx.lookupObject(reply.actorUri);
  if (!isActor(account) || account.id?.href !== reply.actorUri) return;
  const site = ctx.getActorUri(SITE_ACTOR);
  const flag = new Flag({
    id: new URL(`#flag-${message.replyId}`, site),
    actor: site,
    objects: [new URL(reply.actorUri), new URL(reply.uri)],
    content: message.content,
  });
  await ctx.sendActivity({ identifier: SITE_ACTOR }, account, flag);
}

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

/**
 * Tells a closed account's followers' servers that its actor is gone (`Delete` of the actor, as Mastodon sends when
 * an account is deleted, which removes its posts there too), then forgets those followers. The actor, emptied of the
 * person, still answers with its key, so the servers can check the signature.
 */
export async function deliverActorDelete(ctx: Context<void>, db: Db, message: ActorDelete) {
  const actor = ctx.getActorUri(message.userId);
  const followers = await followersOf(db, [message.userId]);
  if (followers.length > 0) {
    const deletion = new Delete({ id: new URL("#delete", actor), actor, object: actor, to: PUBLIC_COLLECTION });
    await ctx.sendActivity({ identifier: message.userId }, followers, deletion, { preferSharedInbox: true });
  }
  await db.delete(remoteFollowers).where(eq(remoteFollowers.actor, message.userId));
}

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
  const article = await articleOf(base, post);
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
