import fs from "node:fs";
import path from "node:path";
import { type Context, createFederation, type Federation } from "@fedify/fedify";
import {
  Accept,
  type Actor,
  Announce,
  Article,
  Create,
  Delete,
  Follow,
  isActor,
  Like,
  Link,
  Note,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import { configureSync, getConfig, type LogRecord } from "@logtape/logtape";
import { and, count, desc, eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { SITE_HANDLE } from "../../../shared/handles.ts";
import { categories, comments, posts, users } from "../../db/schema.ts";
import { createFederationKv } from "../../infra/federation-kv.ts";
import { createFederationQueue } from "../../infra/federation-queue.ts";
import { periodic } from "../../infra/periodic.ts";
import { isPublished } from "../content/post-queries.ts";
import type { Deps } from "../deps.ts";
import { userIdByHandle } from "../users/handles.ts";
import { isBlockedDomain } from "./domains.ts";
import { addFollower, countFollowers, followersOf, forgetFollower, removeFollower, SITE_ACTOR } from "./followers.ts";
import { createKeyring } from "./keys.ts";
import { articleColumns, articleOf, createOf, isUuid, personOf, publishedArticle, siteActor } from "./objects.ts";
import { deliverActorUpdate, deliverPostActivity } from "./outgoing.ts";
import { isActorUpdate, isPostActivity } from "./queue-messages.ts";
import { addReaction, editReply, forgetReply, receiveReply, removeReaction } from "./replies.ts";

const OUTBOX_PAGE = 20;

/** Penchain's version, for NodeInfo and the User-Agent of deliveries. */
const packageVersion = () =>
  (
    JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../../../package.json"), "utf8")) as {
      version: string;
    }
  ).version;

/** Where a remote object is read: its `url`, as a URL or a link. */
const linkOf = (url: URL | Link | null): string | null =>
  url instanceof Link ? (url.href?.href ?? null) : (url?.href ?? null);

/** A remote account's avatar, if it has one over https (or on a local test peer). */
async function avatarOf(ctx: Context<void>, actor: Actor): Promise<string | null> {
  const icon = await actor.getIcon(ctx).catch(() => null);
  const url = icon?.url instanceof Link ? icon.url.href : icon?.url;
  return url && /^https?:$/.test(url.protocol) ? url.href : null;
}

/** The host an incoming activity says it is from (its actor's), or null if it says nothing readable. */
async function senderOf(request: Request): Promise<string | null> {
  const activity = (await request
    .clone()
    .json()
    .catch(() => null)) as { actor?: unknown } | null;
  const actor = activity?.actor;
  const uri = typeof actor === "string" ? actor : (actor as { id?: unknown } | undefined)?.id;
  return typeof uri === "string" && URL.canParse(uri) ? new URL(uri).hostname : null;
}

/** Fedify logs through LogTape; its warnings and errors (refused activities, failed deliveries) go to our log. */
let fedifyLog: FastifyBaseLogger | undefined;
function routeFedifyLogs(log: FastifyBaseLogger) {
  fedifyLog = log;
  if (getConfig()) return;
  const sink = (record: LogRecord) => {
    const message = record.message.map((part) => (typeof part === "string" ? part : String(part))).join("");
    // What a line needs (ids, inboxes, types, errors), never a whole activity: an article is many kilobytes.
    const fields = Object.fromEntries(
      Object.entries(record.properties)
        .filter(([, value]) => ["string", "number", "boolean"].includes(typeof value) || value instanceof Error)
        .map(([key, value]) => [key, typeof value === "string" ? value.slice(0, 300) : value]),
    );
    const line = { category: record.category.join("."), ...fields };
    if (record.level === "error" || record.level === "fatal") fedifyLog?.error(line, message);
    else if (record.level === "warning") fedifyLog?.warn(line, message);
    else fedifyLog?.info(line, message);
  };
  configureSync({
    sinks: { app: sink },
    loggers: [
      { category: ["fedify"], lowestLevel: "warning", sinks: ["app"] },
      // Each delivery made, and each activity received and handled.
      { category: ["fedify", "federation", "outbox"], lowestLevel: "info", sinks: ["app"], parentSinks: "override" },
      { category: ["fedify", "federation", "inbox"], lowestLevel: "info", sinks: ["app"], parentSinks: "override" },
      { category: ["logtape", "meta"], lowestLevel: "error", sinks: ["app"] },
    ],
  });
}

/**
 * The site on the fediverse (issue 21), built on Fedify: every author an actor (`@handle@host`, a `Person`), the
 * site one too (`@blog@host`, a `Group` that announces every post), WebFinger and NodeInfo, a shared inbox, and
 * deliveries of posts queued in the database. Null when the site does not federate (`config.federation`).
 */
export function createFederator(deps: Pick<Deps, "db" | "config" | "log">) {
  const settings = deps.config.federation;
  if (!settings) return null;
  const { db, log } = deps;
  const base = deps.config.publicUrl;
  routeFedifyLogs(log);
  const version = packageVersion();
  const kv = createFederationKv(db);
  const queue = createFederationQueue({ db, log, leaseMs: settings.leaseMs });
  const keyring = createKeyring(db);

  const context = () => federation.createContext(new URL(base));
  const federation: Federation<void> = createFederation<void>({
    kv,
    // Our own messages (a post's activity, queued in the transaction that changed it) share the queue; Fedify's
    // handler gets the rest.
    queue: {
      ...queue,
      listen: (handler, options) =>
        queue.listen((message) => {
          if (isPostActivity(message)) return deliverPostActivity(context(), db, base, message);
          if (isActorUpdate(message)) return deliverActorUpdate(context(), db, base, message);
          return handler(message);
        }, options),
    },
    manuallyStartQueue: true,
    origin: base,
    allowPrivateAddress: settings.allowPrivateAddress,
    userAgent: { software: `Penchain/${version}`, url: new URL(base) },
    onOutboxError: (error, activity) =>
      log.warn({ err: error, activity: activity?.id?.href }, "federation: a delivery failed; it is tried again later"),
  });

  federation
    .setActorDispatcher("/ap/actors/{identifier}", async (ctx, identifier) =>
      identifier === SITE_ACTOR ? siteActor(ctx, db, base) : personOf(ctx, db, base, identifier),
    )
    .setKeyPairsDispatcher(async (_ctx, identifier) => {
      if (identifier !== SITE_ACTOR && !(isUuid(identifier) && (await userExists(identifier)))) return [];
      return keyring(identifier);
    })
    .mapHandle(async (_ctx, handle) => {
      const name = handle.toLowerCase();
      return name === SITE_HANDLE ? SITE_ACTOR : userIdByHandle(db, name);
    })
    .mapAlias((_ctx, resource) => {
      if (resource.origin !== new URL(base).origin) return null;
      const profile = /^\/profile\/([0-9a-f-]{36})$/.exec(resource.pathname);
      if (profile?.[1]) return { identifier: profile[1] };
      return resource.pathname === "/" ? { identifier: SITE_ACTOR } : null;
    });

  /** The id of our post at `uri` (an article's address), or null. */
  function localPost(ctx: Context<void>, uri: URL | null): string | null {
    const parsed = uri && ctx.parseUri(uri);
    return parsed?.type === "object" && parsed.class === Article ? (parsed.values.id ?? null) : null;
  }

  async function userExists(id: string) {
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, id), eq(users.isBlocked, false)));
    return Boolean(row);
  }
  const actorExists = (identifier: string) =>
    identifier === SITE_ACTOR
      ? Promise.resolve(true)
      : isUuid(identifier)
        ? userExists(identifier)
        : Promise.resolve(false);

  federation
    .setFollowersDispatcher("/ap/actors/{identifier}/followers", async (_ctx, identifier) => {
      if (!(await actorExists(identifier))) return null;
      return { items: await followersOf(db, [identifier]) };
    })
    .setCounter((_ctx, identifier) => countFollowers(db, identifier));

  /** What an actor's outbox lists: the author's published posts, or every published post for the site. */
  const postsOf = (identifier: string) =>
    identifier === SITE_ACTOR ? isPublished : and(isPublished, eq(posts.userId, identifier));

  federation
    .setOutboxDispatcher("/ap/actors/{identifier}/outbox", async (ctx, identifier) => {
      if (!(await actorExists(identifier))) return null;
      const rows = await db
        .select(articleColumns)
        .from(posts)
        .innerJoin(categories, eq(categories.id, posts.categoryId))
        .where(postsOf(identifier))
        .orderBy(desc(posts.publishedAt), desc(posts.id))
        .limit(OUTBOX_PAGE);
      return {
        items: rows.map((row) => createOf(ctx, articleOf(ctx, base, row), row.userId)),
      };
    })
    .setCounter(async (_ctx, identifier) => {
      const [row] = await db.select({ count: count() }).from(posts).where(postsOf(identifier));
      return row?.count ?? 0;
    });

  federation.setObjectDispatcher(Article, "/posts/{id}", async (ctx, values) => {
    const post = await publishedArticle(db, values.id);
    return post ? articleOf(ctx, base, post) : null;
  });

  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => {
    const [[usersRow], [postsRow], [commentsRow]] = await Promise.all([
      db.select({ count: count() }).from(users).where(eq(users.isBlocked, false)),
      db.select({ count: count() }).from(posts).where(isPublished),
      db.select({ count: count() }).from(comments),
    ]);
    return {
      software: { name: "penchain", version, homepage: new URL(base) },
      protocols: ["activitypub"],
      openRegistrations: true,
      usage: {
        users: { total: usersRow?.count ?? 0 },
        localPosts: postsRow?.count ?? 0,
        localComments: commentsRow?.count ?? 0,
      },
    };
  });

  federation
    .setInboxListeners("/ap/actors/{identifier}/inbox", "/ap/inbox")
    .on(Follow, async (ctx, follow) => {
      const target = follow.objectId && ctx.parseUri(follow.objectId);
      if (!follow.id || !follow.actorId || target?.type !== "actor") return;
      if (!(await actorExists(target.identifier))) return;
      const follower = await follow.getActor(ctx);
      if (!isActor(follower) || !follower.id || !follower.inboxId) return;
      await addFollower(db, target.identifier, {
        uri: follower.id.href,
        inbox: follower.inboxId.href,
        sharedInbox: follower.endpoints?.sharedInbox?.href ?? null,
      });
      log.info({ actor: target.identifier, follower: follower.id.href }, "federation: followed");
      await ctx.sendActivity(
        { identifier: target.identifier },
        follower,
        new Accept({
          id: new URL(`#accept/${encodeURIComponent(follow.id.href)}`, ctx.getActorUri(target.identifier)),
          actor: ctx.getActorUri(target.identifier),
          object: follow,
        }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const object = await undo.getObject(ctx);
      if (!undo.actorId) return;
      if (object instanceof Like || object instanceof Announce) {
        if (object.actorId?.href !== undo.actorId.href) return;
        await removeReaction(db, {
          actorUri: undo.actorId.href,
          kind: object instanceof Like ? "like" : "announce",
          activityUri: object.id?.href ?? null,
          postId: localPost(ctx, object.objectId),
        });
        return;
      }
      if (!(object instanceof Follow) || object.actorId?.href !== undo.actorId.href) return;
      const target = object.objectId && ctx.parseUri(object.objectId);
      if (target?.type !== "actor") return;
      if (await removeFollower(db, target.identifier, undo.actorId.href))
        log.info({ actor: target.identifier, follower: undo.actorId.href }, "federation: unfollowed");
    })
    .on(Delete, async (_ctx, deletion) => {
      const actorUri = deletion.actorId?.href;
      const objectUri = deletion.objectId?.href;
      if (!actorUri || !objectUri) return;
      // An account deleted on its server follows nobody here any more; a reply deleted goes from its post.
      if (objectUri === actorUri) await forgetFollower(db, { uri: actorUri });
      else await forgetReply(db, objectUri, actorUri);
    })
    .on(Create, async (ctx, create) => {
      const note = await create.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !create.actorId) return;
      // The reply must be its sender's own: nobody posts in another's name.
      if (note.attributionId?.href !== create.actorId.href) return;
      const postId = localPost(ctx, note.replyTargetId);
      if (!postId) return;
      const author = await create.getActor(ctx);
      if (!isActor(author) || !author.id) return;
      const reply = await receiveReply(db, postId, {
        uri: note.id.href,
        actorUri: author.id.href,
        authorName: (author.name ?? author.preferredUsername ?? author.id.href).toString(),
        authorHandle: `@${author.preferredUsername ?? "?"}@${author.id.host}`,
        authorAvatar: await avatarOf(ctx, author),
        url: linkOf(note.url) ?? note.id.href,
        html: note.content?.toString() ?? "",
        publishedAt: note.published ? new Date(note.published.epochMilliseconds) : null,
      });
      if (reply) log.info({ post: postId, from: author.id.href, status: reply.status }, "federation: a reply arrived");
    })
    .on(Update, async (ctx, update) => {
      const note = await update.getObject(ctx);
      if (!(note instanceof Note) || !note.id || !update.actorId) return;
      if (note.attributionId?.href !== update.actorId.href) return;
      await editReply(db, note.id.href, update.actorId.href, note.content?.toString() ?? "");
    })
    .on(Like, async (ctx, like) => {
      const postId = localPost(ctx, like.objectId);
      if (!postId || !like.actorId) return;
      await addReaction(db, { postId, actorUri: like.actorId.href, kind: "like", activityUri: like.id?.href ?? null });
    })
    .on(Announce, async (ctx, announce) => {
      const postId = localPost(ctx, announce.objectId);
      if (!postId || !announce.actorId) return;
      await addReaction(db, {
        postId,
        actorUri: announce.actorId.href,
        kind: "announce",
        activityUri: announce.id?.href ?? null,
      });
    })
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

  federation.setOutboxPermanentFailureHandler(async (_ctx, failure) => {
    log.warn(
      { inbox: failure.inbox.href, reason: failure.reason },
      "federation: an inbox is gone; its followers dropped",
    );
    await forgetFollower(db, { inbox: failure.inbox.href });
  });

  const stop = new AbortController();
  let listening: Promise<void> | undefined;
  const sweeper = periodic(() => kv.sweep(), {
    everyMs: 60 * 60_000,
    onError: (error) => log.warn({ err: error }, "federation: kv sweep failed"),
  });

  return {
    /** Answers a federation request: WebFinger, NodeInfo, actors and their collections, inboxes, an article. */
    async fetch(request: Request): Promise<Response> {
      if (request.method === "POST") {
        const sender = await senderOf(request);
        if (sender && (await isBlockedDomain(db, sender))) {
          log.warn({ from: sender }, "federation: an activity from a blocked domain was refused");
          return Response.json({ message: "This domain is blocked here" }, { status: 403 });
        }
      }
      return federation.fetch(request, {
        contextData: undefined,
        onNotFound: () => Response.json({ message: "Not found" }, { status: 404 }),
        onNotAcceptable: () =>
          Response.json({ message: "This address answers ActivityStreams JSON only" }, { status: 406 }),
      });
    },
    start() {
      listening = federation.startQueue(undefined, { signal: stop.signal });
      sweeper.start();
    },
    /** Looks at the queue now: a post's activity was just queued. */
    nudge: () => queue.nudge(),
    async close() {
      stop.abort();
      await sweeper.close();
      await listening?.catch(() => {});
    },
  };
}

export type Federator = NonNullable<ReturnType<typeof createFederator>>;
