import { Article, Hashtag, Image, PUBLIC_COLLECTION } from "@fedify/fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { excerpt, plainText } from "#shared/text.ts";
import { SITE_ACTOR } from "../core/federation-queue.ts";

// A post as the fediverse is shown it, built from the post alone (no Fedify context), so the revision's writer signs
// exactly the `Article` the federation later serves. The addresses are those federation.ts routes.

/** Fedify's types name the platform's `Temporal`, which Node lacks; its vocabulary takes the polyfill's at run time. */
type Instant = NonNullable<NonNullable<ConstructorParameters<typeof Article>[0]>["published"]>;
export const instant = (date: Date) => Temporal.Instant.fromEpochMilliseconds(date.getTime()) as unknown as Instant;
export const absolute = (url: string, base: string) => new URL(url, `${base}/`);

export const actorUri = (base: string, identifier: string) =>
  absolute(`/ap/actors/${encodeURIComponent(identifier)}`, base);
export const followersUri = (base: string, identifier: string) =>
  absolute(`/ap/actors/${encodeURIComponent(identifier)}/followers`, base);
export const articleUri = (base: string, postId: string) => absolute(`/posts/${encodeURIComponent(postId)}`, base);
/** An actor's Ed25519 key as its actor lists it (Fedify numbers the actor's keys from 1: RSA, then Ed25519). */
export const ed25519KeyId = (base: string, identifier: string) => new URL("#multikey-2", actorUri(base, identifier));
export const siteKeyId = (base: string) => ed25519KeyId(base, SITE_ACTOR);

/** What an article is made of. */
export interface ArticleFields {
  id: string;
  title: string;
  description: string;
  image: string | null;
  userId: string;
  publishedAt: Date | null;
  createdAt: Date;
  category: string;
}

/** A hashtag is one word: the category's letters and digits. */
const hashtag = (title: string) => title.replace(/[^\p{L}\p{N}_]/gu, "");

/**
 * A post as an `Article`: its whole sanitised HTML, a summary, the cover as an attachment and the category as a
 * hashtag, addressed to the public and to its author's and the site's followers. `revisedAt`: its latest revision's
 * time when that is an edit.
 */
export function buildArticle(base: string, post: ArticleFields, revisedAt: Date | null) {
  const tag = hashtag(post.category);
  const published = post.publishedAt ?? post.createdAt;
  return new Article({
    id: articleUri(base, post.id),
    attribution: actorUri(base, post.userId),
    name: post.title,
    content: post.description,
    summary: excerpt(plainText(post.description), 500),
    url: absolute(`/posts/${post.id}`, base),
    published: instant(published),
    updated: revisedAt && revisedAt > published ? instant(revisedAt) : null,
    to: PUBLIC_COLLECTION,
    ccs: [followersUri(base, post.userId), followersUri(base, SITE_ACTOR)],
    attachments: post.image ? [new Image({ url: absolute(post.image, base), name: post.title })] : [],
    tags: tag
      ? [new Hashtag({ name: `#${tag}`, href: absolute(`/posts?category=${encodeURIComponent(post.category)}`, base) })]
      : [],
  });
}
