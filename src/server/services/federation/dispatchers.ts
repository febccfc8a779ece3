import type { Federation } from "@fedify/fedify";
import { Article } from "@fedify/fedify/vocab";
import { SITE_HANDLE } from "#shared/handles.ts";
import type { Db } from "../../db/client.ts";
import { userIdByHandle } from "../core/handles.ts";
import type { createKeyring } from "../provenance/keys.ts";
import { countFollowers, followersOf, SITE_ACTOR } from "./followers.ts";
import { articleOf, createOf, isUuid, personOf, publishedArticle, siteActor } from "./objects.ts";
import { activeUserExists, countOutbox, outboxArticles, readUsageCounts } from "./queries.ts";

const OUTBOX_PAGE = 20;
/** NodeInfo's counts are read at most this often: crawlers ask for them all the time. */
const NODEINFO_TTL_MS = 10 * 60_000;

/**
 * What the site answers other servers about: its actors (each author a `Person`, the site a `Group`) with their keys,
 * handles, followers and outboxes, a post as an `Article`, and NodeInfo. Answers whether an actor exists, for the inbox.
 */
export function registerDispatchers(
  federation: Federation<void>,
  options: { db: Db; base: string; version: string; keyring: ReturnType<typeof createKeyring> },
) {
  const { db, base, version, keyring } = options;
  const userExists = (id: string) => activeUserExists(db, id);
  const actorExists = (identifier: string) =>
    identifier === SITE_ACTOR
      ? Promise.resolve(true)
      : isUuid(identifier)
        ? userExists(identifier)
        : Promise.resolve(false);

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

  federation
    .setFollowersDispatcher("/ap/actors/{identifier}/followers", async (_ctx, identifier) => {
      if (!(await actorExists(identifier))) return null;
      return { items: await followersOf(db, [identifier]) };
    })
    .setCounter((_ctx, identifier) => countFollowers(db, identifier));

  federation
    .setOutboxDispatcher("/ap/actors/{identifier}/outbox", async (ctx, identifier) => {
      if (!(await actorExists(identifier))) return null;
      const rows = await outboxArticles(db, identifier, OUTBOX_PAGE);
      return {
        items: await Promise.all(rows.map(async (row) => createOf(ctx, await articleOf(base, row), row.userId))),
      };
    })
    .setCounter((_ctx, identifier) => countOutbox(db, identifier));

  federation.setObjectDispatcher(Article, "/posts/{id}", async (_ctx, values) => {
    const post = await publishedArticle(db, values.id);
    return post ? articleOf(base, post) : null;
  });

  let usage: { at: number; counts: Promise<number[]> } | undefined;
  const usageCounts = () => {
    if (!usage || Date.now() - usage.at > NODEINFO_TTL_MS) {
      const counts = readUsage();
      usage = { at: Date.now(), counts };
      // A failed read is not kept: the next request reads again.
      counts.catch(() => {
        if (usage?.counts === counts) usage = undefined;
      });
    }
    return usage.counts;
  };
  const readUsage = () => readUsageCounts(db);

  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async () => {
    const [usersCount = 0, postsCount = 0, commentsCount = 0] = await usageCounts();
    return {
      software: { name: "penchain", version, homepage: new URL(base) },
      protocols: ["activitypub"],
      openRegistrations: true,
      usage: {
        users: { total: usersCount },
        localPosts: postsCount,
        localComments: commentsCount,
      },
    };
  });

  return { actorExists };
}
