import { SaxesParser } from "saxes";
import { type ArchiveFile, HostileArchive, textChunks } from "../archive-file.ts";
import { paragraphs } from "../body.ts";
import {
  CUT_BODY,
  cutBody,
  type FormatOpener,
  type ImportedComment,
  type ImportedPost,
  ITEM_LIMITS,
  oldPath,
  type SkippedItem,
} from "../items.ts";
import { SKIPPED } from "../report.ts";
import { type Attachments, shortcodesAsHtml } from "./shortcodes.ts";

const STATUSES: Record<string, ImportedPost["status"]> = {
  publish: "published",
  future: "scheduled",
  draft: "draft",
  pending: "draft",
  private: "draft",
};

/** WordPress writes its dates as `YYYY-MM-DD hh:mm:ss`, in UTC in the `_gmt` fields. */
const wpDate = (value: string | undefined) => {
  if (!value || value.startsWith("0000")) return null;
  const date = new Date(`${value.trim().replace(" ", "T")}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The fields read (an item's other elements are passed over, so an item holds a bounded number of texts). */
const ITEM_FIELDS = new Set([
  "title",
  "link",
  "guid",
  "content:encoded",
  "dc:creator",
  "wp:post_id",
  "wp:post_parent",
  "wp:post_type",
  "wp:status",
  "wp:post_date",
  "wp:post_date_gmt",
  "wp:post_password",
  "wp:attachment_url",
]);
const COMMENT_FIELDS = new Set([
  "wp:comment_id",
  "wp:comment_author",
  "wp:comment_date",
  "wp:comment_date_gmt",
  "wp:comment_content",
  "wp:comment_approved",
  "wp:comment_type",
]);

interface RawItem {
  fields: Record<string, string>;
  category: string | null;
  thumbnail: string | null;
  comments: Record<string, string>[];
}

/** saxes keeps the text it has not handed over yet (a text node, a CDATA section, an attribute) in here. */
type SaxesBuffers = { text: string; name: string };

/**
 * Reads a WXR document a chunk at a time, handing each `<item>` over as it closes. A DOCTYPE that declares
 * entities (a billion laughs, an external file) is refused; an entity it does not know stops the parse. No text is
 * kept past `ITEM_LIMITS.text` characters: one text node of a gigabyte is read through, not held.
 */
async function* wxrItems(archive: ArchiveFile, on: { author?: (name: string) => void; site?: (url: string) => void }) {
  const xml = archive.isZip ? archive.names().find((name) => /\.xml$/i.test(name) && !name.includes("__MACOSX")) : null;
  if (archive.isZip && !xml) throw new HostileArchive("The zip holds no WordPress export (.xml) file.");
  const parser = new SaxesParser({ xmlns: false, position: false });
  const buffers = parser as unknown as SaxesBuffers;
  const stack: string[] = [];
  const ready: RawItem[] = [];
  let item: RawItem | null = null;
  let meta: Record<string, string> | null = null;
  let comment: Record<string, string> | null = null;
  let author: Record<string, string> | null = null;
  let text = "";
  let categoryDomain = "category";
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/i.test(doctype) || doctype.length >= ITEM_LIMITS.text)
      throw new HostileArchive("The XML declares entities (an entity expansion or an external file): refused.");
  });
  parser.on("opentag", (tag) => {
    stack.push(tag.name);
    text = "";
    if (tag.name === "item") item = { fields: {}, category: null, thumbnail: null, comments: [] };
    else if (tag.name === "wp:postmeta") meta = {};
    else if (tag.name === "wp:comment") comment = {};
    else if (tag.name === "wp:author") author = {};
    else if (tag.name === "category") categoryDomain = String(tag.attributes.domain ?? "category");
  });
  const add = (value: string) => {
    if (text.length <= ITEM_LIMITS.text) text += value.slice(0, ITEM_LIMITS.text + 1 - text.length);
  };
  parser.on("text", add);
  parser.on("cdata", add);
  parser.on("closetag", (tag) => {
    stack.pop();
    const name = tag.name;
    if (name === "item" && item) {
      ready.push(item);
      item = null;
    } else if (name === "wp:postmeta" && meta && item) {
      if (meta["wp:meta_key"] === "_thumbnail_id") item.thumbnail = (meta["wp:meta_value"] ?? "").slice(0, 100);
      meta = null;
    } else if (name === "wp:comment" && comment && item) {
      if (item.comments.length <= ITEM_LIMITS.comments) item.comments.push(comment);
      comment = null;
    } else if (name === "wp:author" && author) {
      on.author?.((author["wp:author_login"] ?? "").slice(0, ITEM_LIMITS.name));
      author = null;
    } else if (meta) {
      if (name === "wp:meta_key" || name === "wp:meta_value") meta[name] = text;
    } else if (comment) {
      if (COMMENT_FIELDS.has(name)) comment[name] = text;
    } else if (author) {
      if (name === "wp:author_login") author[name] = text;
    } else if (item && name === "category") {
      if (categoryDomain === "category" && item.category === null) item.category = text.trim();
    } else if (item && stack.at(-1) === "item") {
      if (ITEM_FIELDS.has(name)) item.fields[name] = text;
    } else if (!item && stack.at(-1) === "channel" && (name === "wp:base_blog_url" || name === "link"))
      on.site?.(text.trim().slice(0, 500));
    text = "";
  });
  const stream = await archive.open(xml ?? null);
  try {
    const parse = (chunk: string | null) => {
      try {
        if (chunk === null) parser.close();
        else parser.write(chunk);
      } catch (error) {
        if (error instanceof HostileArchive) throw error;
        throw new HostileArchive(`The XML could not be read: ${(error as Error).message}`);
      }
      // What saxes holds of a text not yet handed over: taken as the element's text so far (kept to the cap) and
      // dropped from saxes, which goes on reading the node. Outside the document (a DOCTYPE) it is refused.
      if (buffers.text.length > ITEM_LIMITS.text) {
        if (stack.length === 0) throw new HostileArchive("The XML has a text too long to read before its document.");
        add(buffers.text);
        buffers.text = "";
      }
      if (buffers.name.length > ITEM_LIMITS.name) throw new HostileArchive("The XML has a name too long to be one.");
    };
    for await (const chunk of unpacked(textChunks(stream))) {
      parse(chunk);
      yield* ready.splice(0);
    }
    parse(null);
    yield* ready.splice(0);
  } finally {
    stream.destroy();
  }
}

const isPost = (raw: RawItem) => raw.fields["wp:post_type"] === "post" && (raw.fields["wp:status"] ?? "") in STATUSES;

/** Why an item that is not a post is not imported (every item of the file is counted in the report). */
function skipped(raw: RawItem): SkippedItem {
  const type = raw.fields["wp:post_type"] ?? "";
  if (type === "page") return { kind: "skipped", reason: SKIPPED.page };
  if (type === "attachment") return { kind: "skipped", reason: SKIPPED.attachment };
  if (type === "post") return { kind: "skipped", reason: SKIPPED.trashed };
  return { kind: "skipped", reason: SKIPPED.other };
}

function toComment(raw: Record<string, string>, postSource: string): ImportedComment | null {
  const type = raw["wp:comment_type"] ?? "";
  if (raw["wp:comment_approved"] !== "1" || (type !== "" && type !== "comment")) return null;
  return {
    source: `${postSource}#comment-${raw["wp:comment_id"] ?? ""}`,
    author: raw["wp:comment_author"] ?? "",
    date: wpDate(raw["wp:comment_date_gmt"]) ?? wpDate(raw["wp:comment_date"]),
    text: raw["wp:comment_content"] ?? "",
  };
}

/** Attachments kept by the scan (for covers and galleries): enough for a large site, bounded for a hostile one. */
const MAX_ATTACHMENTS = 200_000;

/** The file's text, its stream's own failure (a file longer than the zip says) a refusal of the archive. */
async function* unpacked(chunks: AsyncGenerator<string>) {
  try {
    yield* chunks;
  } catch (error) {
    throw new HostileArchive(`The XML could not be read: ${(error as Error).message}`);
  }
}

export const PASSWORD_DRAFT = "it is password-protected on the old site: it arrives as a draft, not public";

/**
 * WordPress's Tools → Export: posts only (not pages, menus, revisions or attachments, which give posts images). A
 * post is known by its site and `wp:post_id` (WordPress copies a guid when a post is duplicated).
 */
export const openWxr: FormatOpener = (archive) => {
  const urls = new Map<string, string>();
  const byParent = new Map<string, string[]>();
  const attachments: Attachments = { url: (id) => urls.get(id), of: (postId) => byParent.get(postId) ?? [] };
  let site = "";
  const onSite = (url: string) => {
    site ||= url;
  };
  return {
    async scan() {
      let total = 0;
      const authors = new Set<string>();
      const onAuthor = (login: string) => authors.size < 10_000 && authors.add(login);
      for await (const raw of wxrItems(archive, { author: onAuthor, site: onSite })) {
        const f = raw.fields;
        const url = f["wp:attachment_url"]?.trim();
        if (f["wp:post_type"] === "attachment" && url && url.length <= 2000 && urls.size < MAX_ATTACHMENTS) {
          urls.set(f["wp:post_id"] ?? "", url);
          const parent = f["wp:post_parent"] ?? "0";
          if (parent !== "0") byParent.set(parent, [...(byParent.get(parent) ?? []), url].slice(0, 100));
        }
        if (!isPost(raw)) continue;
        total++;
        if (f["dc:creator"]) onAuthor(f["dc:creator"].trim().slice(0, ITEM_LIMITS.name));
      }
      return { total, authors: [...authors].filter(Boolean) };
    },
    async *items() {
      const seen = new Set<string>();
      for await (const raw of wxrItems(archive, { site: onSite })) {
        if (!isPost(raw)) {
          yield skipped(raw);
          continue;
        }
        const f = raw.fields;
        const id = (f["wp:post_id"] ?? "").trim();
        const source = id ? `wxr:${site}#${id}` : `wxr:${(f.guid ?? f.title ?? "").trim()}`;
        if (seen.has(source)) {
          yield { kind: "skipped", reason: SKIPPED.twice };
          continue;
        }
        if (seen.size < 1_000_000) seen.add(source);
        // Cut first: the shortcodes are read in at most the editor's length.
        const body = cutBody(f["content:encoded"] ?? "");
        const draftReason = f["wp:post_password"] ? PASSWORD_DRAFT : body.cut ? CUT_BODY : undefined;
        const status = draftReason ? "draft" : (STATUSES[f["wp:status"] ?? ""] ?? "draft");
        const date = wpDate(f["wp:post_date_gmt"]) ?? wpDate(f["wp:post_date"]);
        const path = status === "published" ? oldPath(f.link?.trim()) : null;
        // As WordPress shows it: its blank-line paragraphs first, then the shortcodes.
        const { html, notes } = shortcodesAsHtml(paragraphs(body.html), id, attachments);
        yield {
          kind: "post",
          source,
          title: f.title ?? "",
          html,
          status,
          date,
          category: raw.category,
          cover: urls.get(raw.thumbnail ?? "") ?? null,
          oldPaths: path ? [path] : [],
          author: f["dc:creator"]?.trim() || null,
          comments: raw.comments.map((comment) => toComment(comment, source)).filter((c) => c !== null),
          notes,
          ...(draftReason ? { draftReason } : {}),
        } satisfies ImportedPost;
      }
    },
  };
};
