import { provenancePath } from "#shared/provenance.ts";
import type { PageHead } from "#shared/reader-pages.ts";
import { escapeHtml } from "../../infra/html.ts";

/**
 * The head of a reader page: title, description, canonical address, Open Graph and Twitter cards for link
 * previews, JSON-LD for search engines, and the feeds. Every value is escaped; JSON-LD cannot close its script.
 */
export function renderHead(head: PageHead, publicUrl: string): string {
  const url = `${publicUrl}${head.path}`;
  const title = head.title ? `${head.title} | ${head.siteName}` : head.siteName;
  const image = head.post?.image ? absolute(publicUrl, head.post.image) : null;
  const tags: string[] = [
    `<title>${escapeHtml(title)}</title>`,
    meta("name", "description", head.description),
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta("property", "og:site_name", head.siteName),
    meta("property", "og:title", head.title || head.siteName),
    meta("property", "og:description", head.description),
    meta("property", "og:url", url),
    meta("property", "og:type", head.post ? "article" : "website"),
    meta("name", "twitter:card", image ? "summary_large_image" : "summary"),
    meta("name", "twitter:title", head.title || head.siteName),
    meta("name", "twitter:description", head.description),
    ...head.feeds.map(
      (feed) =>
        `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(feed.title)}" href="${escapeHtml(`${publicUrl}${feed.path}`)}" />`,
    ),
  ];
  if (head.noindex) tags.push(meta("name", "robots", "noindex"));
  if (image) tags.push(meta("property", "og:image", image), meta("name", "twitter:image", image));
  if (head.post) {
    const post = head.post;
    const author = `${post.user.firstName} ${post.user.lastName}`;
    tags.push(
      meta("property", "article:published_time", post.publishedAt ?? post.createdAt),
      meta("property", "article:modified_time", post.updatedAt),
      meta("property", "article:author", author),
      meta("property", "article:section", post.category),
    );
    const jsonLd = {
      "@context": "https://schema.org",
      "@type": "BlogPosting",
      headline: post.title,
      description: head.description,
      datePublished: post.publishedAt ?? post.createdAt,
      dateModified: post.updatedAt,
      author: { "@type": "Person", name: author, url: `${publicUrl}/profile/${post.user.id}` },
      publisher: { "@type": "Organization", name: head.siteName, url: publicUrl },
      mainEntityOfPage: url,
      articleSection: post.category,
      ...(image ? { image } : {}),
      // Its revisions, the author's signatures and the site's proofs (docs/provenance.md).
      ...(post.provenance
        ? {
            subjectOf: {
              "@type": "WebPage",
              name: "Provenance: revisions and signatures",
              url: `${publicUrl}${provenancePath(post.id)}`,
            },
          }
        : {}),
    };
    tags.push(`<script type="application/ld+json">${safeJson(jsonLd)}</script>`);
  }
  return tags.join("\n    ");
}

function meta(attribute: "name" | "property", key: string, content: string) {
  return `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
}

const absolute = (publicUrl: string, url: string) => (/^https?:\/\//.test(url) ? url : `${publicUrl}${url}`);

/** JSON inside a script element: `<` written as \u003c, so no text can end the element. */
export const safeJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
