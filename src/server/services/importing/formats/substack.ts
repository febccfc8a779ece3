import { pipeline } from "node:stream";
import { parse } from "csv-parse";
import { type ArchiveFile, HostileArchive } from "../archive-file.ts";
import { dateOf, type FormatOpener, type ImportedPost, ITEM_LIMITS } from "../items.ts";
import { SKIPPED } from "../report.ts";

const MAX_HTML_BYTES = 20 * 1024 ** 2;

/** A CSV file in the zip, a row at a time, by its header's names. */
async function* csvRows(archive: ArchiveFile, name: string): AsyncGenerator<Record<string, string>> {
  const stream = await archive.open(name);
  // A pipeline, not a pipe: an error of the zip's stream (a file longer than its directory says) reaches the rows.
  const rows = pipeline(
    stream,
    parse({
      columns: true,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: ITEM_LIMITS.text,
    }),
    () => {},
  );
  try {
    for await (const row of rows) yield row as Record<string, string>;
  } catch (error) {
    throw new HostileArchive(`${name} could not be read: ${(error as Error).message}`);
  } finally {
    stream.destroy();
  }
}

const isEmailList = (name: string) => /(^|\/)email_list[^/]*\.csv$/i.test(name);
const isTrue = (value: string | undefined) => /^(true|t|1|yes)$/i.test(value ?? "");

/** Substack's Settings → Exports zip: `posts.csv`, `posts/<id>.html`, `email_list*.csv` (its subscribers). */
export const openSubstack: FormatOpener = (archive) => {
  if (!archive.isZip) throw new HostileArchive("A Substack export is a zip: upload the file Substack sent you.");
  const postsCsv = archive.names().find((name) => /(^|\/)posts\.csv$/i.test(name));
  if (!postsCsv) throw new HostileArchive("The zip holds no posts.csv: is it Substack's export?");
  const base = postsCsv.slice(0, -"posts.csv".length);
  const lists = archive.names().filter(isEmailList);
  const subscribed = (row: Record<string, string>) => row.email && !isTrue(row.email_disabled);
  return {
    async scan() {
      let total = 0;
      for await (const row of csvRows(archive, postsCsv)) if (row.post_id && row.type !== "page") total++;
      for (const list of lists) for await (const row of csvRows(archive, list)) if (subscribed(row)) total++;
      return { total, authors: [] };
    },
    async *items() {
      for await (const row of csvRows(archive, postsCsv)) {
        const id = row.post_id ?? "";
        if (!id || row.type === "page") {
          yield { kind: "skipped", reason: id ? SKIPPED.page : SKIPPED.other };
          continue;
        }
        const file = `${base}posts/${id}.html`;
        const html = archive.names().includes(file) ? (await archive.read(file, MAX_HTML_BYTES)).toString("utf8") : "";
        const slug = id.includes(".") ? id.slice(id.indexOf(".") + 1) : "";
        const published = isTrue(row.is_published);
        yield {
          kind: "post",
          source: `substack:${id}`,
          title: row.title ?? "",
          // The subtitle is HTML as Substack writes it; the sanitiser cleans it with the body.
          html: row.subtitle ? `<p><em>${row.subtitle}</em></p>${html}` : html,
          status: published ? "published" : "draft",
          date: dateOf(row.post_date),
          category: null,
          cover: null,
          oldPaths: published && /^[\w-]+$/.test(slug) ? [`/p/${slug}`] : [],
          author: null,
          comments: [],
        } satisfies ImportedPost;
      }
      for (const list of lists)
        for await (const row of csvRows(archive, list))
          yield subscribed(row)
            ? { kind: "subscriber", source: `substack-subscriber:${row.email}`, email: row.email ?? "", author: null }
            : { kind: "skipped", reason: SKIPPED.unsubscribed };
    },
  };
};
