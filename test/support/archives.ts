import fs from "node:fs";
import path from "node:path";
import yazl from "yazl";
import type { App } from "../../src/server/app.ts";
import { postForm } from "./content.ts";
import { bearer } from "./users.ts";

/** A zip of `files` (name → content), written by yazl as any archiver would. */
export function zipOf(files: Record<string, string | Buffer>, compress = true): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on("data", (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/** Every file under a folder of test/fixtures, by its path inside it. */
export function folderFiles(folder: string, prefix = ""): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const entry of fs.readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files[`${prefix}${path.relative(folder, full).split(path.sep).join("/")}`] = fs.readFileSync(full);
  }
  return files;
}

export interface WxrPost {
  id: number;
  title: string;
  body: string;
  status?: string;
  date?: string;
  category?: string;
  thumbnail?: number;
  link?: string;
  type?: string;
  creator?: string;
  comments?: { id: number; author: string; date: string; content: string; approved?: string; type?: string }[];
}

const cdata = (text: string) => `<![CDATA[${text.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`;

/** A WXR document as WordPress's Tools → Export writes it (its namespaces, CDATA, `_gmt` dates, attachments). */
export function wxr(posts: WxrPost[], attachments: { id: number; url: string }[] = [], doctype = "") {
  const items = posts.map(
    (post) => `<item>
  <title>${cdata(post.title)}</title>
  <link>${post.link ?? `https://old.example/2019/05/post-${post.id}/`}</link>
  <dc:creator>${cdata(post.creator ?? "writer")}</dc:creator>
  <guid isPermaLink="false">https://old.example/?p=${post.id}</guid>
  <content:encoded>${cdata(post.body)}</content:encoded>
  <wp:post_id>${post.id}</wp:post_id>
  <wp:post_date>${cdata(post.date ?? "2019-05-01 10:00:00")}</wp:post_date>
  <wp:post_date_gmt>${cdata(post.date ?? "2019-05-01 10:00:00")}</wp:post_date_gmt>
  <wp:post_name>${cdata(`post-${post.id}`)}</wp:post_name>
  <wp:status>${cdata(post.status ?? "publish")}</wp:status>
  <wp:post_type>${cdata(post.type ?? "post")}</wp:post_type>
  ${post.category ? `<category domain="category" nicename="c">${cdata(post.category)}</category>` : ""}
  <category domain="post_tag" nicename="t">${cdata("a tag")}</category>
  ${post.thumbnail ? `<wp:postmeta><wp:meta_key>${cdata("_thumbnail_id")}</wp:meta_key><wp:meta_value>${cdata(String(post.thumbnail))}</wp:meta_value></wp:postmeta>` : ""}
  ${(post.comments ?? [])
    .map(
      (comment) => `<wp:comment>
    <wp:comment_id>${comment.id}</wp:comment_id>
    <wp:comment_author>${cdata(comment.author)}</wp:comment_author>
    <wp:comment_date_gmt>${cdata(comment.date)}</wp:comment_date_gmt>
    <wp:comment_content>${cdata(comment.content)}</wp:comment_content>
    <wp:comment_approved>${cdata(comment.approved ?? "1")}</wp:comment_approved>
    <wp:comment_type>${cdata(comment.type ?? "comment")}</wp:comment_type>
  </wp:comment>`,
    )
    .join("\n")}
</item>`,
  );
  const files = attachments.map(
    (file) => `<item>
  <title>image ${file.id}</title>
  <wp:post_id>${file.id}</wp:post_id>
  <wp:status>${cdata("inherit")}</wp:status>
  <wp:post_type>${cdata("attachment")}</wp:post_type>
  <wp:attachment_url>${cdata(file.url)}</wp:attachment_url>
</item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
${doctype}<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Old blog</title>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_login>${cdata("writer")}</wp:author_login></wp:author>
${files.join("\n")}
${items.join("\n")}
</channel>
</rss>`;
}

/** `POST /api/imports` as the Import screen sends it. */
export function uploadArchive(
  app: App,
  session: { token: string },
  fields: Record<string, string>,
  file: { data: Buffer | string; filename: string },
) {
  const data = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data);
  const form = postForm(fields, { data, filename: file.filename, type: "application/octet-stream" }, "file");
  return app.inject({ method: "POST", url: "/api/imports", ...form, headers: { ...form.headers, ...bearer(session) } });
}

/** Uploads an archive, waits for the import job, and answers the import's last state (refusing any other answer). */
export async function importArchive<State>(
  app: App,
  session: { token: string },
  fields: Record<string, string>,
  file: { data: Buffer | string; filename: string },
): Promise<State> {
  const response = await uploadArchive(app, session, fields, file);
  if (response.statusCode !== 202) throw new Error(`the upload answered ${response.statusCode}: ${response.body}`);
  await app.imports.idle();
  const state = await app.inject({
    method: "GET",
    url: `/api/imports/${response.json().id}`,
    headers: bearer(session),
  });
  return state.json() as State;
}
