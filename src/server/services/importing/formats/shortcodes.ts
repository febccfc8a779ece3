import { escapeHtml } from "../../../infra/html.ts";

/** What a post's shortcodes may point at: the export's attachments, by id and by the post they belong to. */
export interface Attachments {
  url(id: string): string | undefined;
  of(postId: string): string[];
}

/** Shortcodes of WordPress and of WordPress.com's Jetpack that have no closing tag and no `=` to tell them by. */
const KNOWN = new Set(
  "caption wp_caption gallery embed audio video playlist youtube vimeo tweet twitter instagram soundcloud googlemaps slideshow contact-form contact-field wpvideo polldaddy archives sitemap recipe dailymotion ted spotify".split(
    " ",
  ),
);
const START = /\[(\/?)([a-z][\w-]*)(?=[\s\]/])/gi;
const ATTRIBUTE = /([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))|"([^"]*)"|(\S+)/g;
const MEDIA_KEYS = ["src", "mp3", "m4a", "ogg", "wav", "mp4", "webm", "ogv", "flv", "wmv", "url"];

interface Tag {
  name: string;
  closing: boolean;
  attrs: Record<string, string>;
  positional: string[];
  start: number;
  end: number;
}

function attributesOf(text: string) {
  const attrs: Record<string, string> = {};
  const positional: string[] = [];
  for (const match of text.matchAll(ATTRIBUTE)) {
    if (match[1]) attrs[match[1].toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? "";
    else positional.push(match[5] ?? match[6] ?? "");
  }
  return { attrs, positional };
}

/** Every `[name …]` and `[/name]` in one pass (a tag ends at the next `]`, as WordPress reads them). */
function tagsOf(html: string): Tag[] {
  const tags: Tag[] = [];
  START.lastIndex = 0;
  for (let match = START.exec(html); match; match = START.exec(html)) {
    const end = html.indexOf("]", match.index);
    if (end < 0) break;
    const name = (match[2] ?? "").toLowerCase();
    const inner = html.slice(match.index + match[0].length, end).replace(/\/$/, "");
    tags.push({ name, closing: match[1] === "/", ...attributesOf(inner), start: match.index, end: end + 1 });
    START.lastIndex = end + 1;
  }
  return tags;
}

// Inline: WordPress's paragraphs are made before its shortcodes are read, so these sit in one.
const link = (url: string) => `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
const image = (url: string) => `<img src="${escapeHtml(url)}">`;
const isUrl = (text: string | undefined): text is string => !!text && /^https?:\/\/\S+$/i.test(text);

/** A caption's image (a link around an `<img>`, or the `<img>`) and the text after it. */
function figure(inner: string, caption: string | undefined) {
  const close = /^\s*<a\b[^>]*>\s*<img\b[^>]*>\s*<\/a>|^\s*<img\b[^>]*>/i.exec(inner);
  const picture = close ? close[0] : "";
  const text = caption ?? inner.slice(picture.length);
  return `<figure>${picture.trim()}<figcaption>${text.trim()}</figcaption></figure>`;
}

/**
 * WordPress's shortcodes as what the editor can show: `[caption]` a figure with its caption, `[gallery]` its images,
 * `[embed]`, `[audio]` and `[video]` a link to what they played; any other shortcode (one WordPress or Jetpack names,
 * one with a closing tag or attributes) is dropped, its enclosed text kept, and named in the answer's notes. Bracketed
 * prose ("[sic]") stays. Block editor comments go with the sanitiser.
 */
export function shortcodesAsHtml(html: string, postId: string, attachments: Attachments) {
  const tags = tagsOf(html);
  if (tags.length === 0) return { html: embedLines(html), notes: [] };
  const closers = new Map<string, { at: number[]; next: number }>();
  for (const [index, tag] of tags.entries()) {
    if (!tag.closing) continue;
    const list = closers.get(tag.name) ?? { at: [], next: 0 };
    list.at.push(index);
    closers.set(tag.name, list);
  }
  /** The index of the tag closing the one at `index`, if any (tags are read in order: each list is walked once). */
  const closerOf = (index: number, name: string) => {
    const list = closers.get(name);
    if (!list) return undefined;
    while (list.next < list.at.length && (list.at[list.next] as number) <= index) list.next++;
    return list.at[list.next];
  };
  const dropped = new Set<string>();
  let out = "";
  let at = 0;
  for (let index = 0; index < tags.length; index++) {
    const tag = tags[index] as Tag;
    if (tag.start < at) continue;
    const closer = tag.closing ? undefined : closerOf(index, tag.name);
    const isShortcode = KNOWN.has(tag.name) || closers.has(tag.name) || Object.keys(tag.attrs).length > 0;
    if (!isShortcode) continue;
    out += html.slice(at, tag.start);
    const end = closer === undefined ? tag.end : (tags[closer] as Tag).end;
    const inner = closer === undefined ? "" : html.slice(tag.end, (tags[closer] as Tag).start);
    const media = MEDIA_KEYS.map((key) => tag.attrs[key]).find(isUrl) ?? tag.positional.find(isUrl);
    if (tag.closing) dropped.add(`[/${tag.name}]`);
    else if (tag.name === "caption" || tag.name === "wp_caption") out += figure(inner, tag.attrs.caption);
    else if (tag.name === "embed" && isUrl(inner.trim())) out += link(inner.trim());
    else if ((tag.name === "audio" || tag.name === "video" || tag.name === "embed") && media) out += link(media);
    else if (tag.name === "gallery") {
      const ids = (tag.attrs.ids ?? tag.attrs.include ?? "").split(",").map((id) => id.trim());
      const urls = tag.attrs.ids || tag.attrs.include ? ids.map(attachments.url) : attachments.of(postId);
      const found = urls.filter((url): url is string => !!url);
      if (found.length === 0) dropped.add("[gallery]");
      out += found.map(image).join("");
    } else {
      dropped.add(`[${tag.name}]`);
      if (!KNOWN.has(tag.name)) out += inner;
    }
    at = end;
    if (closer !== undefined) index = closer;
  }
  out += html.slice(at);
  const notes = dropped.size > 0 ? [`shortcodes left out: ${[...dropped].slice(0, 10).join(", ")}`] : [];
  return { html: embedLines(out), notes };
}

/** A line that is only an address (WordPress embeds it: a video, a tweet) as a link to it. */
const embedLines = (html: string) =>
  html.replace(/^[ \t]*(https?:\/\/[^\s<>"'[\]]+)[ \t]*$/gim, (_line, url: string) => link(url));
