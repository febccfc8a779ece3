/**
 * RSS 2.0 and sitemap XML written by hand, because every value in them is somebody's text: each one is escaped as
 * an XML text node (never put in CDATA, whose `]]>` ends it), and characters XML 1.0 cannot carry at all (control
 * characters, unpaired surrogates, U+FFFE/U+FFFF) are dropped, so no title or body can end an element, add one, or
 * make the document unparseable.
 */

const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text for an XML element or attribute value. */
export const xmlText = (value: string) =>
  value.replace(NOT_XML, "").replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

const element = (name: string, value: string | undefined) =>
  value === undefined ? "" : `<${name}>${xmlText(value)}</${name}>`;

export interface RssChannel {
  title: string;
  description: string;
  /** The HTML page the feed follows. */
  link: string;
  /** The feed's own address (atom:link rel=self). */
  self: string;
  language: string;
  copyright: string;
  updated: Date;
}

export interface RssItem {
  title: string;
  link: string;
  /** Plain text. */
  description: string;
  /** The post's (sanitised) HTML, as escaped text in content:encoded. */
  content: string;
  author: string;
  date: Date;
  category: string;
  image?: string | undefined;
  /** The post's provenance page: its revisions, the author's signatures and the site's proofs. */
  provenance?: string | undefined;
}

function item(entry: RssItem) {
  return [
    "    <item>",
    `      ${element("title", entry.title)}`,
    `      ${element("link", entry.link)}`,
    `      <guid isPermaLink="true">${xmlText(entry.link)}</guid>`,
    `      ${element("pubDate", entry.date.toUTCString())}`,
    `      ${element("description", entry.description)}`,
    `      ${element("content:encoded", entry.content)}`,
    `      ${element("dc:creator", entry.author)}`,
    `      ${element("category", entry.category)}`,
    ...(entry.image ? [`      <enclosure url="${xmlText(entry.image)}" length="0" type="image/webp"/>`] : []),
    ...(entry.provenance
      ? [
          `      <atom:link rel="related" type="text/html" title="Provenance: revisions and signatures" href="${xmlText(entry.provenance)}"/>`,
        ]
      : []),
    "    </item>",
  ].join("\n");
}

export function rss2(channel: RssChannel, items: RssItem[]) {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    `    ${element("title", channel.title)}`,
    `    ${element("link", channel.link)}`,
    `    ${element("description", channel.description)}`,
    `    ${element("language", channel.language)}`,
    `    ${element("copyright", channel.copyright)}`,
    `    ${element("lastBuildDate", channel.updated.toUTCString())}`,
    "    <generator>Penchain</generator>",
    `    <atom:link href="${xmlText(channel.self)}" rel="self" type="application/rss+xml"/>`,
    ...items.map(item),
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

export function urlSet(urls: { loc: string; lastmod?: string }[]) {
  const items = urls.map((url) => `  <url>${element("loc", url.loc)}${element("lastmod", url.lastmod)}</url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</urlset>\n`;
}

export function sitemapIndex(locations: string[]) {
  const items = locations.map((loc) => `  <sitemap>${element("loc", loc)}</sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${items.join("\n")}\n</sitemapindex>\n`;
}
