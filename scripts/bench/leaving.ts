// Leaving, for `npm run bench`: how long "Download my data" takes to prepare the archive of an author with 1,000
// posts, each with its cover image in storage (issue 38's target: 15 s), on the real server's database.
import crypto from "node:crypto";
import fs from "node:fs";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { archiveFile, prepareNextExport } from "../../src/server/services/leaving/exports.ts";
import { startScratchServer } from "../lib/scratch-server.ts";

const POSTS = 1000;
const EXPORT_TARGET_S = 15;

export async function benchExport(databaseUrl: string | undefined) {
  const misses: string[] = [];
  console.log(`\nDownload my data: an author with ${POSTS.toLocaleString("en")} posts, each with its cover image`);
  const { app } = await startScratchServer("leaving", databaseUrl, { LOG_LEVEL: "info" });
  try {
    const rows = async <Row>(query: ReturnType<typeof sql>) =>
      ((await app.db.execute(query)) as unknown as { rows: Row[] }).rows;
    const [author] = await rows<{ id: string }>(sql`
      insert into users (first_name, last_name, handle, email, password_hash)
      values ('Prolific', 'Author', 'prolific-author', 'prolific@bench.example.com', 'not-a-hash') returning id`);
    if (!author) throw new Error("seeding failed");
    await app.db.execute(sql`insert into categories (title, user_id) values ('Essays', ${author.id})`);
    // Images as uploads leave them: WebP of a photo's size (noise weighs what a photo does), each its own file.
    const [width, height] = [1200, 675];
    const image = await sharp(crypto.randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .blur(1.5)
      .webp({ quality: 80 })
      .toBuffer();
    const urls = await Promise.all(
      Array.from({ length: POSTS }, (_, index) => app.storage.put(`bench-cover-${index}.webp`, image, "image/webp")),
    );
    const coverOf = sql`(${sql.raw(`array[${urls.map((url) => `'${url.replace(/'/g, "''")}'`).join(",")}]`)})[n]`;
    const body = `<h2>A heading</h2>${'<p>A paragraph with <strong>bold</strong>, <em>italics</em> and a <a href="https://example.com/">link</a>.</p>'.repeat(20)}<ul><li>One</li><li>Two</li></ul>`;
    await app.db.execute(sql`
      insert into posts (title, description, category_id, user_id, image)
      select 'Essay number ' || n, ${body}, (select id from categories limit 1), ${author.id}::uuid,
        ${coverOf}
      from generate_series(1, ${POSTS}) n`);
    await app.db.execute(sql`insert into data_exports (user_id) values (${author.id})`);
    const [row] = await rows<{ id: string }>(sql`select id from data_exports`);
    console.log(`(each cover ${Math.round(image.length / 1024)} KiB)`);
    // What the process holds (JavaScript's heap and buffers, garbage not yet collected included), at its highest.
    const held = () => {
      const memory = process.memoryUsage();
      return memory.heapUsed + memory.arrayBuffers;
    };
    const before = held();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, held());
    }, 20);
    const started = performance.now();
    await prepareNextExport(app.deps);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const [state] = await rows<{ status: string; bytes: number }>(sql`select status, bytes from data_exports`);
    const grew = Math.round((peak - before) / 1024 / 1024);
    console.log(
      `prepared in ${seconds.toFixed(1)} s (target ${EXPORT_TARGET_S} s): ${state?.status}, ${Math.round((state?.bytes ?? 0) / 1024 / 1024)} MiB, heap and buffers at most +${grew} MiB`,
    );
    if (state?.status !== "ready") misses.push(`the data export ended ${state?.status}`);
    if (seconds > EXPORT_TARGET_S)
      misses.push(`the data export took ${seconds.toFixed(1)} s, over ${EXPORT_TARGET_S} s`);
    fs.rmSync(archiveFile(app.deps.config, row?.id ?? ""), { force: true });
  } finally {
    await app.close();
  }
  return misses;
}
