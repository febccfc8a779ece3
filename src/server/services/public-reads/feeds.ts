import { provenancePath } from "#shared/provenance.ts";
import type { Post } from "#shared/schemas/posts.ts";
import { excerpt, plainText } from "#shared/text.ts";
import type { Format } from "../../infra/read-cache.ts";
import { countPosts, listNewestPosts, listPostDates } from "../content/shown-posts.ts";
import type { Deps } from "../core/deps.ts";
import { cacheTags } from "../core/tags.ts";
import type { PublicReads } from "./public-reads.ts";
import { rss2, sitemapIndex, urlSet } from "./rss.ts";

const FEED_SIZE = 20;
/** The sitemap protocol's limit is 50,000 addresses a file; a few go to the fixed pages. */
const SITEMAP_SIZE = 49_000;

/** Feeds and sitemaps are kept as the text they are sent as (a sitemap file past the last is kept as null). */
const asText = (type: string): Format => ({ type, encode: (text) => (text as string | null) ?? "" });
const RSS = asText("application/rss+xml; charset=utf-8");
const XML = asText("application/xml; charset=utf-8");
const sitemapTags = () => [cacheTags.posts];
const authorName = (post: Post) => `${post.user.firstName} ${post.user.lastName}`;

/**
 * Discovery, kept like every public read: an RSS feed of the newest posts (the site's, a category's, an author's)
 * and the sitemap (an index of sitemap files once it outgrows one). Every address in them is built from PUBLIC_URL
 * and validated values, never from what a request said.
 */
export function createFeeds(reads: PublicReads, deps: Deps) {
  const base = deps.config.publicUrl.replace(/\/$/, "");
  const absolute = (url: string) => (/^https?:\/\//.test(url) ? url : `${base}${url}`);
  const fixedPages = () => [{ loc: `${base}/` }, { loc: `${base}/posts` }];
  async function postUrls(offset: number) {
    const rows = await listPostDates(deps, { offset, limit: SITEMAP_SIZE });
    return rows.map((row) => ({ loc: `${base}/posts/${row.id}`, lastmod: row.updatedAt.toISOString() }));
  }

  return {
    /** The feed of `category` (a title as stored) or `author`, or the site's; only its text is kept. */
    rss(filter: { category?: string; author?: string }) {
      const { category, author } = filter;
      let shown: Post[] = [];
      return reads.text(
        `feed:${JSON.stringify({ category, author })}`,
        async () => {
          const [settings, posts] = await Promise.all([
            reads.settings(),
            listNewestPosts(deps, { category, author, limit: FEED_SIZE }),
          ]);
          const scope = category ?? (author && posts[0] ? authorName(posts[0]) : null);
          const self = new URL(`${base}/rss.xml`);
          if (category) self.searchParams.set("category", category);
          if (author) self.searchParams.set("author", author);
          shown = posts;
          return rss2(
            {
              title: scope ? `${settings.siteName}: ${scope}` : settings.siteName,
              description: settings.siteDescription || settings.siteName,
              link: category ? `${base}/posts?category=${encodeURIComponent(category)}` : `${base}/posts`,
              self: self.href,
              language: "en",
              copyright: `${settings.siteName} and its authors`,
              updated: posts[0] ? new Date(posts[0].updatedAt) : new Date(0),
            },
            posts.map((post) => ({
              title: post.title,
              link: `${base}/posts/${post.id}`,
              description: excerpt(plainText(post.description), 300),
              content: post.description,
              author: authorName(post),
              date: new Date(post.publishedAt ?? post.createdAt),
              category: post.category,
              image: post.image ? absolute(post.image) : undefined,
              provenance: post.provenance ? `${base}${provenancePath(post.id)}` : undefined,
            })),
          );
        },
        // The posts it was written from give its tags.
        () => [
          cacheTags.posts,
          cacheTags.settings,
          ...shown.flatMap((post) => [cacheTags.post(post.id), cacheTags.user(post.user.id)]),
        ],
        RSS,
      );
    },

    /** The sitemap, or the index of its files once it outgrows one. */
    sitemap: () =>
      reads.text(
        "sitemap",
        async () => {
          const total = await countPosts(deps);
          if (total <= SITEMAP_SIZE) return urlSet([...fixedPages(), ...(await postUrls(0))]);
          const files = Math.ceil(total / SITEMAP_SIZE);
          return sitemapIndex(Array.from({ length: files }, (_, index) => `${base}/sitemap-${index + 1}.xml`));
        },
        sitemapTags,
        XML,
      ),

    /** Sitemap file `file` (from 1); its value is null past the last. */
    sitemapFile: (file: number) =>
      reads.text(
        `sitemap:${file}`,
        async () => {
          const urls = await postUrls((file - 1) * SITEMAP_SIZE);
          return urls.length === 0 ? null : urlSet([...(file === 1 ? fixedPages() : []), ...urls]);
        },
        sitemapTags,
        XML,
      ),
  };
}
export type Feeds = ReturnType<typeof createFeeds>;
