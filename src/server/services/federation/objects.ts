import type { Context } from "@fedify/fedify";
import { type Article, Create, Endpoints, Group, Image, Person, PUBLIC_COLLECTION } from "@fedify/fedify/vocab";
import { and, eq, isNull, sql } from "drizzle-orm";
import { SITE_HANDLE } from "#shared/handles.ts";
import type { Db } from "../../db/client.ts";
import { categories, postRevisions, posts, users } from "../../db/schema.ts";
import { escapeHtml } from "../../infra/html.ts";
import { isPublished } from "../core/post-queries.ts";
import { buildArticle, instant } from "../provenance/article.ts";
import { withProofs } from "../provenance/site-proof.ts";
import { readSettings } from "../settings.ts";
import { SITE_ACTOR } from "./followers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

const absolute = (url: string, base: string) => new URL(url, `${base}/`);
/** Plain text as the HTML a summary is: escaped, its lines kept. */
const textAsHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, "<br>")}</p>`)
    .join("");

/** What an actor shows besides its own fields: keys, inbox, outbox, followers and the shared inbox. */
async function actorFields(ctx: Context<void>, identifier: string) {
  const keys = await ctx.getActorKeyPairs(identifier);
  return {
    id: ctx.getActorUri(identifier),
    inbox: ctx.getInboxUri(identifier),
    outbox: ctx.getOutboxUri(identifier),
    followers: ctx.getFollowersUri(identifier),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
    manuallyApprovesFollowers: false,
    discoverable: true,
    indexable: true,
  };
}

/** An author as a `Person`; a blocked or unknown user is nobody. */
export async function personOf(ctx: Context<void>, db: Db, base: string, userId: string) {
  if (!isUuid(userId)) return null;
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isBlocked, false), isNull(users.suspendedAt)));
  if (!user) return null;
  return new Person({
    ...(await actorFields(ctx, user.id)),
    preferredUsername: user.handle,
    name: `${user.firstName} ${user.lastName}`,
    summary: user.bio ? textAsHtml(user.bio) : null,
    url: absolute(`/profile/${user.id}`, base),
    icon: user.profilePhoto ? new Image({ url: absolute(user.profilePhoto, base) }) : null,
    published: instant(user.createdAt),
  });
}

/** The site as a whole, a `Group`: following it is following every post. */
export async function siteActor(ctx: Context<void>, db: Db, base: string) {
  const settings = await readSettings({ db });
  return new Group({
    ...(await actorFields(ctx, SITE_ACTOR)),
    preferredUsername: SITE_HANDLE,
    name: settings.siteName,
    summary: settings.siteDescription ? textAsHtml(settings.siteDescription) : null,
    url: absolute("/", base),
  });
}

/** The columns an article is made of. */
export const articleColumns = {
  id: posts.id,
  title: posts.title,
  description: posts.description,
  image: posts.image,
  userId: posts.userId,
  publishedAt: posts.publishedAt,
  updatedAt: posts.updatedAt,
  createdAt: posts.createdAt,
  category: categories.title,
  /** Its latest revision's number, time and the proofs of it (docs/provenance.md). */
  latest: sql<{ revision: number; at: string; proofs: unknown[] } | null>`(select json_build_object('revision',
    ${postRevisions.revision}, 'at', ${postRevisions.publishedAt},
    'proofs', json_build_array(${postRevisions.siteProof}, ${postRevisions.actorProof}))
    from ${postRevisions} where ${postRevisions.postId} = ${posts.id} order by ${postRevisions.revision} desc limit 1)`,
};

/** A published post of an author who is not blocked, or null. */
export async function publishedArticle(db: Db, postId: string) {
  if (!isUuid(postId)) return null;
  const [row] = await db
    .select(articleColumns)
    .from(posts)
    .innerJoin(categories, eq(categories.id, posts.categoryId))
    .innerJoin(users, eq(users.id, posts.userId))
    .where(and(eq(posts.id, postId), isPublished, eq(users.isBlocked, false), isNull(users.suspendedAt)));
  return row ?? null;
}

export type ArticleRow = NonNullable<Awaited<ReturnType<typeof publishedArticle>>>;

/**
 * A post as an `Article` (provenance/article.ts), with the FEP-8b32 proofs of its latest revision (the site's and its
 * author's actor's): they hold while the post is what that revision signed, and fail on a copy changed since.
 */
export async function articleOf(base: string, post: ArticleRow) {
  const latest = post.latest;
  const article = buildArticle(base, post, latest && latest.revision > 1 ? new Date(latest.at) : null);
  return latest ? withProofs(article, latest.proofs) : article;
}

/** A post's `Create`, as its author's followers get it and as the author's outbox lists it. */
export function createOf(ctx: Context<void>, article: Article, authorId: string) {
  return new Create({
    id: new URL("#create", article.id ?? undefined),
    actor: ctx.getActorUri(authorId),
    object: article,
    to: PUBLIC_COLLECTION,
    ccs: article.ccIds,
    published: article.published,
  });
}
