// Importing, for `npm run bench`: a WordPress export of 1,000 posts with 1,000 images (a zip with its
// wp-content/uploads), uploaded over HTTP to the real server as the Import screen sends it, while readers keep
// reading. Issue 38's targets: done within 60 s, the server's memory up by at most 150 MB, readers' p99 ≤ 50 ms.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import yazl from "yazl";
import { imports } from "../../src/server/db/schema.ts";
import { type WxrPost, wxr } from "../../test/support/archives.ts";
import { startScratchServer } from "../lib/scratch-server.ts";

const POSTS = Number(process.env.BENCH_IMPORT_POSTS ?? 1000);
const TARGET_S = 60;
const MEMORY_TARGET_MB = 150;
const READ_P99_TARGET_MS = 50;
const READERS = 4;

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0);
};

/** The archive, written to disk as an archiver would: the XML, then every image under its upload path. */
async function writeArchive(file: string) {
  const [width, height] = [1200, 800];
  // A photo's weight: noise, slightly blurred, as JPEG. Each post has its own file (the importer reads each).
  const photo = await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .blur(1.5)
    .jpeg({ quality: 80 })
    .toBuffer();
  const posts: WxrPost[] = Array.from({ length: POSTS }, (_, index) => {
    // WordPress's own spelling of a date: one post a year's May from 2010, each commented on the day.
    const date = `${2010 + (index % 14)}-05-01 10:00:00`;
    return {
      id: index + 1,
      title: `Travel notes ${index + 1}`,
      body: `${'<p>A paragraph of an old post, with <strong>bold</strong> words and a <a href="https://example.com/">link</a>.</p>'.repeat(12)}`,
      category: `Topic ${index % 12}`,
      thumbnail: 10_000 + index,
      date,
      comments: [{ id: index, author: "A reader", date, content: "Thanks for this." }],
    };
  });
  const attachments = posts.map((post, index) => ({
    id: 10_000 + index,
    url: `https://old.example/wp-content/uploads/2019/05/photo-${post.id}.jpg`,
  }));
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(wxr(posts, attachments)), "blog.WordPress.xml");
  for (const post of posts)
    zip.addBuffer(photo, `wp-content/uploads/2019/05/photo-${post.id}.jpg`, { compress: false });
  zip.end();
  await new Promise<void>((resolve, reject) =>
    zip.outputStream.pipe(fs.createWriteStream(file)).on("finish", resolve).on("error", reject),
  );
  return photo.length;
}

/** `--paced-readers <url> <postId>`: reads until SIGTERM, then prints every latency and the failures as JSON. */
export async function pacedReaders(url: string, postId: string) {
  const latencies: number[] = [];
  let failures = 0;
  let reading = true;
  process.once("SIGTERM", () => {
    reading = false;
  });
  const reader = async (index: number) => {
    const pages = ["/posts", `/posts/${postId}`, "/api/posts?limit=10"];
    for (let turn = index; reading; turn++) {
      const started = performance.now();
      const answer = await fetch(`${url}${pages[turn % pages.length]}`, { headers: { "accept-encoding": "br, gzip" } });
      await answer.arrayBuffer();
      latencies.push(performance.now() - started);
      if (!answer.ok) failures++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await Promise.all(Array.from({ length: READERS }, (_, index) => reader(index)));
  process.stdout.write(`${JSON.stringify({ latencies: latencies.map(Math.round), failures })}\n`);
}

/** `--upload-archive <url> <token> <file>`: sends the archive as the Import screen does; prints the answer. */
export async function uploadArchive(url: string, token: string, file: string) {
  const form = new FormData();
  form.set("format", "wxr");
  form.set("file", await fs.openAsBlob(file), path.basename(file));
  const answer = await fetch(`${url}/api/imports`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  process.stdout.write(`${JSON.stringify({ ...((await answer.json()) as object), code: answer.status })}\n`);
}

/**
 * Readers, in a process of their own (their client's work is not the server's): the list page, a post page and the
 * API's list, as browsers ask for them, each of 4 readers every 50 ms (a busy blog's readers, not a load test).
 */
function startReaders(script: string, url: string, postId: string) {
  const child = spawn(process.execPath, [script, "--paced-readers", url, postId], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let report = "";
  child.stdout.on("data", (chunk: Buffer) => {
    report += chunk.toString();
  });
  return {
    async stop() {
      const ended = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await ended;
      return JSON.parse(report.trim().split("\n").at(-1) ?? "{}") as { latencies: number[]; failures: number };
    },
  };
}

export async function benchImport(script: string, databaseUrl: string | undefined) {
  const misses: string[] = [];
  console.log(`\nImport: a WordPress export of ${POSTS.toLocaleString("en")} posts with their images, readers reading`);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-import-bench-"));
  const file = path.join(folder, "blog.zip");
  const photoBytes = await writeArchive(file);
  console.log(
    `(the zip ${Math.round(fs.statSync(file).size / 1024 / 1024)} MiB, each image ${Math.round(photoBytes / 1024)} KiB, ${databaseUrl ? "PostgreSQL" : "PGlite"})`,
  );
  const { app, url } = await startScratchServer("importing", databaseUrl, { LOG_LEVEL: "info" });
  try {
    const rows = async <Row>(query: ReturnType<typeof sql>) =>
      ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
    const [author] = await rows<{ id: string }>(sql`
      insert into users (first_name, last_name, handle, email, password_hash)
      values ('Moving', 'Author', 'moving-author', 'moving@bench.example.com', 'not-a-hash') returning id`);
    if (!author) throw new Error("seeding failed");
    await app.db.execute(sql`insert into categories (title, user_id) values ('Essays', ${author.id})`);
    const [post] = await rows<{ id: string }>(sql`
      insert into posts (title, description, category_id, user_id)
      values ('Already here', '<p>A post readers read meanwhile.</p>', (select id from categories limit 1), ${author.id}::uuid)
      returning id`);
    const token = await app.tokens.sign({ id: author.id, tokenVersion: 0 });

    // What the process holds (heap and buffers, uncollected garbage included) and its resident size, at their highest.
    const held = () => {
      const memory = process.memoryUsage();
      return { js: memory.heapUsed + memory.arrayBuffers, rss: memory.rss };
    };
    const before = held();
    const peak = { ...before };
    const sampler = setInterval(() => {
      const now = held();
      peak.js = Math.max(peak.js, now.js);
      peak.rss = Math.max(peak.rss, now.rss);
    }, 20);

    // Readers alone first (the reference, measured in the same run, after a warm-up), then while the import runs.
    const warmUp = startReaders(script, url, post?.id ?? "");
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await warmUp.stop();
    const idle = startReaders(script, url, post?.id ?? "");
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const alone = await idle.stop();
    const readers = startReaders(script, url, post?.id ?? "");
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    // Uploaded from a process of its own, as a browser would: its memory is not the server's.
    const uploader = spawn(process.execPath, [script, "--upload-archive", url, token, file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let uploadReport = "";
    uploader.stdout.on("data", (chunk: Buffer) => {
      uploadReport += chunk.toString();
    });
    await new Promise((resolve) => uploader.once("exit", resolve));
    const { code, id, message } = JSON.parse(uploadReport.trim() || "{}") as {
      code: number;
      id: string;
      message?: string;
    };
    if (code !== 202) throw new Error(`the upload was refused: ${code} ${message}`);
    const state = { id };
    const uploaded = (performance.now() - started) / 1000;
    let row: typeof imports.$inferSelect | undefined;
    do {
      await new Promise((resolve) => setTimeout(resolve, 250));
      [row] = await app.db.select().from(imports).where(eq(imports.id, state.id));
    } while (row && (row.status === "queued" || row.status === "running") && performance.now() - started < 300_000);
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const { latencies, failures } = await readers.stop();
    clearInterval(sampler);
    const [counts] = await rows<{ posts: number; images: number }>(sql`
      select count(*)::int as posts, count(image)::int as images from posts where user_id = ${author.id}`);
    const grew = Math.round((peak.js - before.js) / 1024 / 1024);
    const rssGrew = Math.round((peak.rss - before.rss) / 1024 / 1024);
    const p99 = percentile(latencies, 0.99);
    console.log(
      `imported in ${seconds.toFixed(1)} s (target ${TARGET_S} s; the upload ${uploaded.toFixed(1)} s): ${row?.status}, ${counts?.posts} posts, ${counts?.images} with their image, ${row?.errors.length} errors`,
    );
    console.log(
      `the server's CPU: ${cpuSeconds.toFixed(1)} s over ${seconds.toFixed(1)} s (${((cpuSeconds / seconds) * 100).toFixed(0)} % of a core; this machine has ${os.availableParallelism()})`,
    );
    console.log(
      `memory: heap and buffers at most +${grew} MiB, resident at most +${rssGrew} MiB (target +${MEMORY_TARGET_MB} MB)`,
    );
    console.log(
      `readers meanwhile: ${latencies.length} pages, p50 ${percentile(latencies, 0.5)} ms, p99 ${p99} ms (target ${READ_P99_TARGET_MS} ms), max ${percentile(latencies, 1)} ms, ${failures} failed; alone: p50 ${percentile(alone.latencies, 0.5)} ms, p99 ${percentile(alone.latencies, 0.99)} ms`,
    );
    if (row?.status !== "done" || counts?.posts !== POSTS + 1 || counts?.images !== POSTS)
      misses.push(`the import ended ${row?.status} with ${counts?.posts} posts and ${counts?.images} images`);
    if (seconds > TARGET_S) misses.push(`the import took ${seconds.toFixed(1)} s, over ${TARGET_S} s`);
    if (rssGrew > MEMORY_TARGET_MB)
      misses.push(`the server grew by ${rssGrew} MiB while importing, over ${MEMORY_TARGET_MB}`);
    if (p99 > READ_P99_TARGET_MS)
      misses.push(`readers' p99 was ${p99} ms while importing, over ${READ_P99_TARGET_MS} ms`);
    if (failures > 0) misses.push(`${failures} reads failed while importing`);
  } finally {
    await app.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return misses;
}
