import { Transform } from "node:stream";
import StreamChain from "stream-chain";
import StreamJson from "stream-json";
import Assembler from "stream-json/Assembler.js";
import Pick from "stream-json/filters/Pick.js";
import { escapeHtml } from "../../../infra/html.ts";
import { type ArchiveFile, HostileArchive } from "../archive-file.ts";
import { cutBody, dateOf, type FormatOpener, type ImportedPost, ITEM_LIMITS, oldPath } from "../items.ts";
import { SKIPPED } from "../report.ts";

type Row = Record<string, unknown>;
type Token = { name: string; value?: string };
const str = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** A row's texts together (its html, lexical, plaintext of one post) and its values, at most. */
const ROW_CHARS = ITEM_LIMITS.text * 4;
const ROW_VALUES = 100_000;

/**
 * The parser's streamed strings, keys and numbers packed whole, each at most `ITEM_LIMITS.text` characters (the rest
 * is read through, not kept): the parser's own packing would hold a string of any length.
 */
function packedBounded() {
  let packed = "";
  return new Transform({
    objectMode: true,
    transform(token: Token, _encoding, done) {
      switch (token.name) {
        case "startString":
        case "startKey":
        case "startNumber":
          packed = "";
          return done();
        case "stringChunk":
        case "numberChunk":
          if (packed.length <= ITEM_LIMITS.text) packed += str(token.value).slice(0, ITEM_LIMITS.text - packed.length);
          return done();
        case "endString":
          return done(null, { name: "stringValue", value: packed });
        case "endKey":
          if (packed.length > 200) return done(new HostileArchive("The JSON has a key too long to be one."));
          return done(null, { name: "keyValue", value: packed });
        case "endNumber":
          if (packed.length > 100) return done(new HostileArchive("The JSON has a number too long to be one."));
          return done(null, { name: "numberValue", value: packed });
        default:
          return done(null, token);
      }
    },
  });
}

/** Each row picked, assembled within a budget: a row over it refuses the archive before anything is written. */
function rowsWithin(table: string) {
  let assembler = new Assembler();
  let chars = 0;
  let values = 0;
  return new Transform({
    objectMode: true,
    transform(token: Token, _encoding, done) {
      chars += token.value?.length ?? 0;
      if (++values > ROW_VALUES || chars > ROW_CHARS)
        return done(new HostileArchive(`A row of the export's ${table} is larger than any post: refused.`));
      assembler.consume(token);
      if (!assembler.done) return done();
      const row = assembler.current as Row;
      assembler = new Assembler();
      chars = values = 0;
      done(null, row);
    },
  });
}

/** One table of a Ghost export, a row at a time: the file is never parsed whole, nor any row past its budget. */
async function* ghostRows(archive: ArchiveFile, json: string | null, table: string): AsyncGenerator<Row> {
  const filter = new RegExp(`^(db\\.\\d+\\.)?data\\.${table}\\.\\d+$`);
  const pipeline = StreamChain.chain([
    await archive.open(json),
    StreamJson.parser({ packValues: false }),
    packedBounded(),
    Pick.pick({ filter }),
    rowsWithin(table),
  ]);
  try {
    for await (const row of pipeline as AsyncIterable<Row>) yield row;
  } catch (error) {
    if (error instanceof HostileArchive) throw error;
    throw new HostileArchive(`The JSON could not be read: ${(error as Error).message}`);
  } finally {
    pipeline.destroy();
  }
}

/** Ghost's Lexical editor state, its common nodes as HTML (Ghost's own export also carries `html`). */
function lexicalHtml(node: Row): string {
  const children = Array.isArray(node.children) ? (node.children as Row[]).map(lexicalHtml).join("") : "";
  switch (node.type) {
    case "root":
      return children;
    case "paragraph":
      return `<p>${children}</p>`;
    case "heading":
    case "extended-heading":
      return str(node.tag) === "h1" ? `<h1>${children}</h1>` : `<h2>${children}</h2>`;
    case "quote":
    case "extended-quote":
    case "aside":
      return `<blockquote>${children}</blockquote>`;
    case "list":
      return str(node.listType) === "number" ? `<ol>${children}</ol>` : `<ul>${children}</ul>`;
    case "listitem":
      return `<li>${children}</li>`;
    case "link":
      return `<a href="${escapeHtml(str(node.url))}">${children}</a>`;
    case "linebreak":
      return "<br>";
    case "image":
      return `<p><img src="${escapeHtml(str(node.src))}" alt="${escapeHtml(str(node.alt))}"></p>`;
    case "text":
    case "extended-text": {
      let text = escapeHtml(str(node.text));
      const format = Number(node.format ?? 0);
      if (format & 1) text = `<strong>${text}</strong>`;
      if (format & 2) text = `<em>${text}</em>`;
      return text;
    }
    case "html":
      return str(node.html);
    default:
      return children;
  }
}

/** Ghost's older Mobiledoc: its text sections, and its Markdown and image cards. */
async function mobiledocHtml(doc: Row, markdown: (text: string) => Promise<string>): Promise<string> {
  const cards = (doc.cards as [string, Row][] | undefined) ?? [];
  const sections = (doc.sections as unknown[][] | undefined) ?? [];
  const parts = await Promise.all(
    sections.slice(0, 10_000).map(async (section) => {
      if (section[0] === 1) {
        const tag = str(section[1]).toLowerCase();
        const text = ((section[2] as unknown[][]) ?? []).map((marker) => escapeHtml(str(marker[3]))).join("");
        const wrap = tag === "h1" ? "h1" : /^h[2-6]$/.test(tag) ? "h2" : tag === "blockquote" ? "blockquote" : "p";
        return `<${wrap}>${text}</${wrap}>`;
      }
      if (section[0] === 10) {
        const [name, payload] = cards[Number(section[1])] ?? ["", {}];
        if (name === "markdown" || name === "card-markdown") return markdown(cutBody(str(payload.markdown)).html);
        if (name === "image") return `<p><img src="${escapeHtml(str(payload.src))}"></p>`;
        if (name === "html") return str(payload.html);
      }
      return "";
    }),
  );
  return parts.join("");
}

/** A post without `html`: its Lexical or Mobiledoc document, or nothing if that does not parse. */
async function rendered(row: Row, markdown: (text: string) => Promise<string>) {
  try {
    if (row.lexical) return lexicalHtml(JSON.parse(str(row.lexical)).root ?? {});
    if (row.mobiledoc) return await mobiledocHtml(JSON.parse(str(row.mobiledoc)), markdown);
  } catch {}
  return "";
}

/** A member who still takes the newsletter (Ghost marks those who turned mail off or whose address bounced). */
const isSubscribed = (row: Row) => Boolean(str(row.email)) && row.email_disabled !== true && row.subscribed !== false;

/** Ghost's `__GHOST_URL__` stands for the old site: what follows it is looked for in the archive. */
const ghostUrl = (value: unknown) => str(value).replaceAll("__GHOST_URL__", "");

/** Ghost's Settings → Labs → Export (JSON, or zipped with its `content/images`): posts, not pages. */
export function openGhost(markdown: (text: string) => Promise<string>): FormatOpener {
  return (archive) => {
    const json = archive.isZip
      ? (archive.names().find((name) => /\.json$/i.test(name) && !name.includes("__MACOSX")) ?? null)
      : null;
    if (archive.isZip && !json) throw new HostileArchive("The zip holds no Ghost export (.json) file.");
    const rows = (table: string) => ghostRows(archive, json, table);
    const tagOf = new Map<string, string>();
    const authorOf = new Map<string, string>();
    const postTag = new Map<string, { tag: string; order: number }>();
    const postAuthor = new Map<string, { author: string; order: number }>();
    const isPost = (row: Row) => str(row.type || "post") === "post";
    return {
      async scan() {
        let total = 0;
        for await (const row of rows("posts")) if (isPost(row)) total++;
        for await (const row of rows("members")) if (isSubscribed(row)) total++;
        for await (const row of rows("tags")) tagOf.set(str(row.id), str(row.name));
        for await (const row of rows("users")) authorOf.set(str(row.id), str(row.email) || str(row.slug));
        for await (const row of rows("posts_tags")) {
          const order = Number(row.sort_order ?? 0);
          const before = postTag.get(str(row.post_id));
          if (!before || order < before.order) postTag.set(str(row.post_id), { tag: str(row.tag_id), order });
        }
        for await (const row of rows("posts_authors")) {
          const order = Number(row.sort_order ?? 0);
          const before = postAuthor.get(str(row.post_id));
          if (!before || order < before.order) postAuthor.set(str(row.post_id), { author: str(row.author_id), order });
        }
        return { total, authors: [...new Set(authorOf.values())].filter(Boolean) };
      },
      async *items() {
        for await (const row of rows("posts")) {
          if (!isPost(row)) {
            yield { kind: "skipped", reason: SKIPPED.page };
            continue;
          }
          const id = str(row.id);
          const status: ImportedPost["status"] =
            row.status === "published" || row.status === "sent"
              ? "published"
              : row.status === "scheduled"
                ? "scheduled"
                : "draft";
          const html = str(row.html) || (await rendered(row, markdown));
          const author = postAuthor.get(id)?.author ?? str(row.author_id);
          const path = status === "published" && row.slug ? oldPath(`/${str(row.slug)}/`) : null;
          yield {
            kind: "post",
            source: `ghost:${str(row.uuid) || id}`,
            title: str(row.title),
            html: ghostUrl(html),
            status,
            date: dateOf(row.published_at) ?? dateOf(row.created_at),
            category: tagOf.get(postTag.get(id)?.tag ?? "") ?? null,
            cover: row.feature_image ? ghostUrl(row.feature_image) : null,
            oldPaths: path ? [path] : [],
            author: authorOf.get(author) ?? null,
            comments: [],
          } satisfies ImportedPost;
        }
        for await (const row of rows("members")) {
          if (!isSubscribed(row)) {
            yield { kind: "skipped", reason: SKIPPED.unsubscribed };
            continue;
          }
          yield { kind: "subscriber", source: `ghost-member:${str(row.email)}`, email: str(row.email), author: null };
        }
      },
    };
  };
}
