import path from "node:path";
import { parse as parseYaml } from "yaml";
import {
  jsonDepth,
  PROVENANCE_FILE_MAX_BYTES,
  PROVENANCE_FILE_MAX_DEPTH,
  type ProvenanceFile,
  provenanceFileSchema,
} from "#shared/schemas/provenance-file.ts";
import { type ArchiveFile, HostileArchive } from "../archive-file.ts";
import { CUT_BODY, cutBody, dateOf, type FormatOpener, type ImportedPost, oldPath } from "../items.ts";

const MAX_FILE_BYTES = 5 * 1024 ** 2;
const MAX_FRONT_MATTER = 64 * 1024;
const isMarkdown = (name: string) => /\.(md|markdown|mdx)$/i.test(name) && !/(^|\/)(__MACOSX|\.)/.test(name);
/** Jekyll's `_posts/<year>-<month>-<day>-<slug>.md`. */
const JEKYLL_NAME = /^(\d{4})-(\d{2})-(\d{2})-(.+)$/;

type Front = Record<string, unknown>;
const first = (value: unknown): string | null =>
  Array.isArray(value) ? first(value[0]) : typeof value === "string" && value.trim() ? value.trim() : null;

/** Front matter between `---` lines (YAML; the parser caps aliases, so no billion laughs), then the Markdown. */
function split(text: string): { front: Front; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { front: {}, body: text };
  if ((match[1] ?? "").length > MAX_FRONT_MATTER) throw new Error("its front matter is over 64 KB");
  try {
    const front = parseYaml(match[1] ?? "", { maxAliasCount: 50 });
    return { front: front && typeof front === "object" ? (front as Front) : {}, body: match[2] ?? "" };
  } catch (error) {
    throw new Error(`its front matter is not YAML we can read (${(error as Error).message.split("\n")[0]})`);
  }
}

const NOT_PROVENANCE = "Its provenance.json was not kept: it is not a Penchain post's provenance.";

/**
 * The `provenance.json` a Penchain archive keeps beside a post's `index.md` (docs/provenance.md), checked for its
 * shape only (verify-post checks what it claims); answers why it is left out when it cannot be kept.
 */
async function provenanceBeside(
  archive: ArchiveFile,
  names: Set<string>,
  file: string,
): Promise<{ provenance?: ProvenanceFile; note?: string }> {
  const name = path.posix.join(path.posix.dirname(file), "provenance.json");
  if (path.posix.basename(file) !== "index.md" || !names.has(name)) return {};
  try {
    const text = (await archive.read(name, PROVENANCE_FILE_MAX_BYTES)).toString("utf8");
    // Kept as jsonb and written back out as JSON later: too deep a file would fail the post's import, or its archive.
    if (jsonDepth(text) > PROVENANCE_FILE_MAX_DEPTH) return { note: NOT_PROVENANCE };
    const parsed = provenanceFileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { provenance: parsed.data };
  } catch {}
  return { note: NOT_PROVENANCE };
}

/** A zip of Markdown files with front matter (Jekyll, Hugo, Mirror and Paragraph exports). */
export function openMarkdown(markdown: (text: string) => Promise<string>): FormatOpener {
  return (archive) => {
    if (!archive.isZip) throw new HostileArchive("Zip the folder of Markdown files, then upload the zip.");
    const names = new Set(archive.names());
    const files = [...names].filter(isMarkdown).sort();
    return {
      async scan() {
        return { total: files.length, authors: [] };
      },
      async *items() {
        for (const file of files) {
          const stem = path.posix.basename(file).replace(/\.[^.]+$/, "");
          const source = `markdown:${file}`;
          let parsed: { front: Front; body: string };
          try {
            parsed = split((await archive.read(file, MAX_FILE_BYTES)).toString("utf8"));
          } catch (error) {
            yield {
              kind: "post",
              source,
              title: stem,
              html: "",
              status: "draft",
              date: null,
              category: null,
              cover: null,
              oldPaths: [],
              author: null,
              comments: [],
              error: (error as Error).message,
            } as ImportedPost;
            continue;
          }
          const { front, body } = parsed;
          const jekyll = JEKYLL_NAME.exec(stem);
          const slug = first(front.slug) ?? jekyll?.[4] ?? stem;
          const heading = /^#\s+(.+)$/m.exec(body);
          const date =
            dateOf(front.date) ?? (jekyll ? dateOf(`${jekyll[1]}-${jekyll[2]}-${jekyll[3]}T00:00:00Z`) : null);
          // Cut before marked reads it: the body's Markdown at most the editor's length.
          const text = cutBody(front.title || !heading ? body : body.replace(heading[0], ""));
          // `status` as a Penchain archive writes it: only a published post arrives published.
          const unpublished = typeof front.status === "string" && front.status !== "published";
          const draft = front.draft === true || front.published === false || unpublished || text.cut;
          const paths = [
            first(front.permalink),
            first(front.url),
            ...(Array.isArray(front.aliases) ? front.aliases.map(first) : []),
            jekyll ? `/${jekyll[1]}/${jekyll[2]}/${jekyll[3]}/${slug}/` : null,
          ]
            .map((value) => oldPath(value))
            .filter((value): value is string => value !== null);
          const cover = front.cover && typeof front.cover === "object" ? (front.cover as Front).image : front.cover;
          const html = await markdown(text.html).catch((error: Error) => new Error(error.message));
          const { provenance, note } = await provenanceBeside(archive, names, file);
          yield {
            kind: "post",
            source,
            title: first(front.title) ?? heading?.[1] ?? slug,
            html: typeof html === "string" ? html : "",
            status: draft ? "draft" : "published",
            date,
            category: first(front.categories) ?? first(front.category) ?? first(front.tags),
            cover: first(cover) ?? first(front.image) ?? first(front.feature_image) ?? first(front.featured_image),
            oldPaths: draft ? [] : [...new Set(paths)],
            author: first(front.author) ?? first(front.authors),
            comments: [],
            baseDir: path.posix.dirname(file),
            ...(text.cut ? { draftReason: CUT_BODY } : {}),
            ...(provenance ? { provenance } : {}),
            ...(note ? { notes: [note] } : {}),
            ...(typeof html === "string" ? {} : { error: `its Markdown could not be read (${html.message})` }),
          } satisfies ImportedPost;
        }
      },
    };
  };
}
