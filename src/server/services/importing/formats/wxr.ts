import { SaxesParser } from "saxes";
import { type ArchiveFile, HostileArchive, textChunks } from "../archive-file.ts";
import { type FormatOpener, type ImportedComment, type ImportedPost, oldPath } from "../items.ts";

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

interface RawItem {
  fields: Record<string, string>;
  categories: string[];
  meta: Record<string, string>;
  comments: Record<string, string>[];
}

/**
 * Reads a WXR document a chunk at a time, handing each `<item>` over as it closes. A DOCTYPE that declares
 * entities (a billion laughs, an external file) is refused; an entity it does not know stops the parse.
 */
async function* wxrItems(archive: ArchiveFile, onAuthor?: (name: string) => void) {
  const xml = archive.isZip ? archive.names().find((name) => /\.xml$/i.test(name) && !name.includes("__MACOSX")) : null;
  if (archive.isZip && !xml) throw new HostileArchive("The zip holds no WordPress export (.xml) file.");
  const parser = new SaxesParser({ xmlns: false, position: false });
  const stack: string[] = [];
  const ready: RawItem[] = [];
  let item: RawItem | null = null;
  let meta: Record<string, string> | null = null;
  let comment: Record<string, string> | null = null;
  let author: Record<string, string> | null = null;
  let text = "";
  let categoryAttributes: Record<string, string> = {};
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/i.test(doctype))
      throw new HostileArchive("The XML declares entities (an entity expansion or an external file): refused.");
  });
  parser.on("opentag", (tag) => {
    stack.push(tag.name);
    text = "";
    if (tag.name === "item") item = { fields: {}, categories: [], meta: {}, comments: [] };
    else if (tag.name === "wp:postmeta") meta = {};
    else if (tag.name === "wp:comment") comment = {};
    else if (tag.name === "wp:author") author = {};
    else if (tag.name === "category") categoryAttributes = tag.attributes as Record<string, string>;
  });
  parser.on("text", (value) => {
    text += value;
  });
  parser.on("cdata", (value) => {
    text += value;
  });
  parser.on("closetag", (tag) => {
    stack.pop();
    const name = tag.name;
    if (name === "item" && item) {
      ready.push(item);
      item = null;
    } else if (name === "wp:postmeta" && meta && item) {
      if (meta["wp:meta_key"]) item.meta[meta["wp:meta_key"]] = meta["wp:meta_value"] ?? "";
      meta = null;
    } else if (name === "wp:comment" && comment && item) {
      item.comments.push(comment);
      comment = null;
    } else if (name === "wp:author" && author) {
      onAuthor?.(author["wp:author_login"] ?? "");
      author = null;
    } else if (meta) meta[name] = text;
    else if (comment) comment[name] = text;
    else if (author) author[name] = text;
    else if (item && name === "category") {
      if ((categoryAttributes.domain ?? "category") === "category") item.categories.push(text.trim());
    } else if (item && stack.at(-1) === "item") item.fields[name] = text;
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
    };
    for await (const chunk of textChunks(stream)) {
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

/** WordPress's Tools → Export: posts only (not pages, menus, revisions or attachments, which give posts images). */
export const openWxr: FormatOpener = (archive) => {
  const attachments = new Map<string, string>();
  return {
    async scan() {
      let total = 0;
      const authors = new Set<string>();
      for await (const raw of wxrItems(archive, (login) => authors.add(login))) {
        if (raw.fields["wp:post_type"] === "attachment" && raw.fields["wp:attachment_url"])
          attachments.set(raw.fields["wp:post_id"] ?? "", raw.fields["wp:attachment_url"].trim());
        if (!isPost(raw)) continue;
        total++;
        if (raw.fields["dc:creator"]) authors.add(raw.fields["dc:creator"].trim());
      }
      return { total, authors: [...authors].filter(Boolean) };
    },
    async *items() {
      for await (const raw of wxrItems(archive)) {
        if (!isPost(raw)) continue;
        const f = raw.fields;
        const source = `wxr:${(f.guid ?? f["wp:post_id"] ?? f.title ?? "").trim()}`;
        const status = STATUSES[f["wp:status"] ?? ""] ?? "draft";
        const date = wpDate(f["wp:post_date_gmt"]) ?? wpDate(f["wp:post_date"]);
        const path = status === "published" ? oldPath(f.link?.trim()) : null;
        yield {
          kind: "post",
          source,
          title: f.title ?? "",
          html: f["content:encoded"] ?? "",
          status,
          date,
          category: raw.categories[0] ?? null,
          cover: attachments.get(raw.meta._thumbnail_id ?? "") ?? null,
          oldPaths: path ? [path] : [],
          author: f["dc:creator"]?.trim() || null,
          comments: raw.comments.map((comment) => toComment(comment, source)).filter((c) => c !== null),
        } satisfies ImportedPost;
      }
    },
  };
};
