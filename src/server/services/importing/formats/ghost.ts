import StreamChain from "stream-chain";
import StreamJson from "stream-json";
import Pick from "stream-json/filters/Pick.js";
import StreamValues from "stream-json/streamers/StreamValues.js";
import { escapeHtml } from "../../../infra/html.ts";
import { type ArchiveFile, HostileArchive } from "../archive-file.ts";
import { dateOf, type FormatOpener, type ImportedPost, oldPath } from "../items.ts";

type Row = Record<string, unknown>;
const str = (value: unknown) => (typeof value === "string" ? value : value == null ? "" : String(value));

/** One table of a Ghost export, a row at a time: the file is never parsed whole. */
async function* ghostRows(archive: ArchiveFile, json: string | null, table: string): AsyncGenerator<Row> {
  const filter = new RegExp(`^(db\\.\\d+\\.)?data\\.${table}\\.\\d+$`);
  const pipeline = StreamChain.chain([
    await archive.open(json),
    StreamJson.parser(),
    Pick.pick({ filter }),
    StreamValues.streamValues(),
  ]);
  try {
    for await (const { value } of pipeline as AsyncIterable<{ value: Row }>) yield value;
  } catch (error) {
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
function mobiledocHtml(doc: Row, markdown: (text: string) => string): string {
  const cards = (doc.cards as [string, Row][] | undefined) ?? [];
  const sections = (doc.sections as unknown[][] | undefined) ?? [];
  return sections
    .map((section) => {
      if (section[0] === 1) {
        const tag = str(section[1]).toLowerCase();
        const text = ((section[2] as unknown[][]) ?? []).map((marker) => escapeHtml(str(marker[3]))).join("");
        const wrap = tag === "h1" ? "h1" : /^h[2-6]$/.test(tag) ? "h2" : tag === "blockquote" ? "blockquote" : "p";
        return `<${wrap}>${text}</${wrap}>`;
      }
      if (section[0] === 10) {
        const [name, payload] = cards[Number(section[1])] ?? ["", {}];
        if (name === "markdown" || name === "card-markdown") return markdown(str(payload.markdown));
        if (name === "image") return `<p><img src="${escapeHtml(str(payload.src))}"></p>`;
        if (name === "html") return str(payload.html);
      }
      return "";
    })
    .join("");
}

/** A post without `html`: its Lexical or Mobiledoc document, or nothing if that does not parse. */
function rendered(row: Row, markdown: (text: string) => string) {
  try {
    if (row.lexical) return lexicalHtml(JSON.parse(str(row.lexical)).root ?? {});
    if (row.mobiledoc) return mobiledocHtml(JSON.parse(str(row.mobiledoc)), markdown);
  } catch {}
  return "";
}

/** A member who still takes the newsletter (Ghost marks those who turned mail off or whose address bounced). */
const isSubscribed = (row: Row) => Boolean(str(row.email)) && row.email_disabled !== true && row.subscribed !== false;

/** Ghost's `__GHOST_URL__` stands for the old site: what follows it is looked for in the archive. */
const ghostUrl = (value: unknown) => str(value).replaceAll("__GHOST_URL__", "");

/** Ghost's Settings → Labs → Export (JSON, or zipped with its `content/images`): posts, not pages. */
export function openGhost(markdown: (text: string) => string): FormatOpener {
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
          if (!isPost(row)) continue;
          const id = str(row.id);
          const status: ImportedPost["status"] =
            row.status === "published" || row.status === "sent"
              ? "published"
              : row.status === "scheduled"
                ? "scheduled"
                : "draft";
          const html = str(row.html) || rendered(row, markdown);
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
          if (!isSubscribed(row)) continue;
          yield { kind: "subscriber", source: `ghost-member:${str(row.email)}`, email: str(row.email), author: null };
        }
      },
    };
  };
}
