import type { Context, Federation, InboxContext } from "@fedify/fedify";
import {
  Accept,
  type Activity,
  type Actor,
  Announce,
  Article,
  Create,
  Delete,
  Flag,
  Follow,
  isActor,
  Like,
  Link,
  Note,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import type { FastifyBaseLogger } from "fastify";
import { plainText } from "#shared/text.ts";
import type { Db } from "../../db/client.ts";
import { isFollowerInbox } from "../../infra/delivery-guard.ts";
import { receiveRemoteReport } from "../moderation/reports.ts";
import { isBlockedDomain } from "./domains.ts";
import { addFollower, forgetFollower, removeFollower, SITE_ACTOR } from "./followers.ts";
import { isClosedAccount } from "./queries.ts";
import { registrableDomain } from "./registrable-domain.ts";
import { addReaction, editReply, forgetReply, receiveReply, removeReaction } from "./replies.ts";
import { remoteHandle } from "./senders.ts";

interface InboxDeps {
  db: Db;
  log: FastifyBaseLogger;
  allowPrivateAddress: boolean;
  actorExists: (identifier: string) => Promise<boolean>;
}

/** Where a remote object is read: its `url`, as a URL or a link. */
const linkOf = (url: URL | Link | null): string | null =>
  url instanceof Link ? (url.href?.href ?? null) : (url?.href ?? null);

/** A remote account's avatar, if it has one over https (or on a local test peer). */
async function avatarOf(ctx: Context<void>, actor: Actor): Promise<string | null> {
  const icon = await actor.getIcon(ctx).catch(() => null);
  const url = icon?.url instanceof Link ? icon.url.href : icon?.url;
  return url && /^https?:$/.test(url.protocol) ? url.href : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of our post at `uri` (an article's address), or null. */
function localPost(ctx: Context<void>, uri: URL | null): string | null {
  const parsed = uri && ctx.parseUri(uri);
  const id = parsed?.type === "object" && parsed.class === Article ? parsed.values.id : undefined;
  return id && UUID.test(id) ? id : null;
}

/**
 * What the shared inbox and each actor's inbox do with an activity. Each arrived signed by a key its one actor owns
 * (`checkSender`); an activity acts only on what that actor owns (its follow, its reply, its like).
 */
export function registerInbox(federation: Federation<void>, deps: InboxDeps) {
  const { db, log } = deps;

  /** Runs a listener only for one actor on a domain not blocked: it may have waited in the queue while blocked. */
  const fromAllowedActor =
    <T extends Activity>(listener: (ctx: InboxContext<void>, activity: T, actor: URL) => Promise<void>) =>
    async (ctx: InboxContext<void>, activity: T) => {
      const [actor, ...more] = activity.actorIds;
      if (!actor || more.length > 0 || (await isBlockedDomain(db, actor.hostname))) return;
      await listener(ctx, activity, actor);
    };

  federation
    .setInboxListeners("/ap/actors/{identifier}/inbox", "/ap/inbox")
    .on(
      Follow,
      fromAllowedActor(async (ctx, follow, actor) => {
        const target = follow.objectId && ctx.parseUri(follow.objectId);
        if (!follow.id || target?.type !== "actor" || !(await deps.actorExists(target.identifier))) return;
        if (target.identifier !== SITE_ACTOR && (await isClosedAccount(db, target.identifier))) return;
        const follower = await follow.getActor(ctx);
        if (!isActor(follower) || follower.id?.href !== actor.href || !follower.inboxId) return;
        // Deliveries go where these say: only the follower's own server, never a third party's.
        const inbox = follower.inboxId.href;
        const shared = follower.endpoints?.sharedInbox?.href ?? null;
        if (!isFollowerInbox(inbox, actor.href, deps.allowPrivateAddress)) {
          log.warn({ follower: actor.href, inbox }, "federation: a follow with an inbox elsewhere was refused");
          return;
        }
        await addFollower(db, target.identifier, {
          uri: actor.href,
          inbox,
          sharedInbox: shared && isFollowerInbox(shared, actor.href, deps.allowPrivateAddress) ? shared : null,
        });
        log.info({ actor: target.identifier, follower: actor.href }, "federation: followed");
        await ctx.sendActivity(
          { identifier: target.identifier },
          follower,
          new Accept({
            id: new URL(`#accept/${encodeURIComponent(follow.id.href)}`, ctx.getActorUri(target.identifier)),
            actor: ctx.getActorUri(target.identifier),
            object: follow,
          }),
        );
      }),
    )
    .on(
      Undo,
      fromAllowedActor(async (ctx, undo, actor) => {
        const object = await undo.getObject(ctx);
        if (object instanceof Like || object instanceof Announce) {
          if (object.actorId?.href !== actor.href) return;
          await removeReaction(db, {
            actorUri: actor.href,
            kind: object instanceof Like ? "like" : "announce",
            activityUri: object.id?.href ?? null,
            postId: localPost(ctx, object.objectId),
          });
          return;
        }
        if (!(object instanceof Follow) || object.actorId?.href !== actor.href) return;
        const target = object.objectId && ctx.parseUri(object.objectId);
        if (target?.type !== "actor") return;
        if (await removeFollower(db, target.identifier, actor.href))
          log.info({ actor: target.identifier, follower: actor.href }, "federation: unfollowed");
      }),
    )
    .on(
      Delete,
      fromAllowedActor(async (_ctx, deletion, actor) => {
        const objectUri = deletion.objectId?.href;
        if (!objectUri) return;
        // An account deleted on its server follows nobody here any more; a reply deleted goes from its post.
        if (objectUri === actor.href) await forgetFollower(db, { uri: actor.href });
        else await forgetReply(db, objectUri, actor.href);
      }),
    )
    .on(
      Create,
      fromAllowedActor(async (ctx, create, actor) => {
        const note = await create.getObject(ctx);
        if (!(note instanceof Note) || !note.id) return;
        // The reply must be its sender's own: nobody posts in another's name.
        if (note.attributionId?.href !== actor.href) return;
        const postId = localPost(ctx, note.replyTargetId);
        if (!postId) return;
        const author = await create.getActor(ctx);
        if (!isActor(author) || author.id?.href !== actor.href) return;
        const handle = remoteHandle(author.preferredUsername?.toString(), actor);
        if (!handle) {
          log.warn({ from: actor.href }, "federation: a reply from an account without a valid username was refused");
          return;
        }
        const reply = await receiveReply(db, postId, {
          uri: note.id.href,
          actorUri: actor.href,
          authorName: (author.name ?? author.preferredUsername ?? actor.href).toString(),
          authorHandle: handle,
          authorAvatar: await avatarOf(ctx, author),
          url: linkOf(note.url) ?? note.id.href,
          html: note.content?.toString() ?? "",
          publishedAt: note.published ? new Date(note.published.epochMilliseconds) : null,
        });
        if (reply) log.info({ post: postId, from: actor.href, status: reply.status }, "federation: a reply arrived");
      }),
    )
    .on(
      Update,
      fromAllowedActor(async (ctx, update, actor) => {
        const note = await update.getObject(ctx);
        if (!(note instanceof Note) || !note.id || note.attributionId?.href !== actor.href) return;
        await editReply(db, note.id.href, actor.href, note.content?.toString() ?? "");
      }),
    )
    .on(
      Like,
      fromAllowedActor(async (ctx, like, actor) => {
        const postId = localPost(ctx, like.objectId);
        if (!postId) return;
        await addReaction(db, { postId, actorUri: actor.href, kind: "like", activityUri: like.id?.href ?? null });
      }),
    )
    .on(
      Announce,
      fromAllowedActor(async (ctx, announce, actor) => {
        const postId = localPost(ctx, announce.objectId);
        if (!postId) return;
        await addReaction(db, {
          postId,
          actorUri: actor.href,
          kind: "announce",
          activityUri: announce.id?.href ?? null,
        });
      }),
    )
    .on(
      Flag,
      fromAllowedActor(async (ctx, flag, actor) => {
        // A report names our posts and users; anything else it names (another server's things) is not ours.
        const targets = flag.objectIds.flatMap((uri): { kind: "post" | "user"; id: string }[] => {
          const postId = localPost(ctx, uri);
          if (postId) return [{ kind: "post" as const, id: postId }];
          const parsed = ctx.parseUri(uri);
          return parsed?.type === "actor" && UUID.test(parsed.identifier)
            ? [{ kind: "user" as const, id: parsed.identifier }]
            : [];
        });
        if (targets.length === 0) return;
        const note = plainText(flag.content?.toString() ?? "");
        const domain = await registrableDomain(actor.hostname);
        const filed = await receiveRemoteReport({ db }, { domain, targets, note });
        log.info({ from: actor.hostname, filed }, "federation: a report arrived from another server");
      }),
    )
    .onUnverifiedActivity((ctx, activity, reason) => {
      log.warn(
        {
          activity: activity.id?.href,
          actor: activity.actorId?.href,
          reason: reason.type,
          from: ctx.request.headers.get("host"),
        },
        "federation: an activity was refused: its signature could not be verified",
      );
    })
    .onError((_ctx, error) => log.error({ err: error }, "federation: an incoming activity failed"));
}
