import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, submitPost } from "../../support/content.ts";
import { pgliteTarget } from "../../support/databases.ts";
import { png } from "../../support/images.ts";
import { makeAdmin, signUp } from "../../support/users.ts";

describe("image widths by address", () => {
  let app: App;
  let uploads: string;
  let cover: string;
  beforeAll(async () => {
    app = await buildTestApp(await pgliteTarget.open());
    uploads = path.join(app.config.dataDir, "uploads");
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    const topic = (await createCategory(app, author)).title;
    const response = await submitPost(
      app,
      author,
      { title: "Cover", description: "<p>x</p>", category: topic, isFeatured: "false" },
      { data: await png(2000, 1000), filename: "cover.png", type: "image/png" },
    );
    cover = response.json().image;
  });
  afterAll(() => app.close());

  const get = (url: string) => app.inject({ method: "GET", url });
  const files = () => fs.readdirSync(uploads).sort();

  it("serves only the canonical names of stored widths, and writes nothing for any other spelling", async () => {
    const name = path.basename(cover, ".webp");
    const before = files();
    expect(before).toEqual([`${name}-w400.webp`, `${name}-w800.webp`, `${name}.webp`].sort());
    const variants = [
      "w01600",
      "w001600",
      "w0400",
      "w00400",
      "w1600",
      "w512",
      "w128.0",
      "w+400",
      "w400-w400",
      "w4e2",
      "w0x190",
      "w 400",
    ];
    for (const variant of variants) {
      expect((await get(`/uploads/${name}-${variant}.webp`)).statusCode, variant).toBe(404);
    }
    expect((await get(`/uploads/${name.toUpperCase()}-w400.webp`)).statusCode).toBe(404);
    expect((await get(`/uploads/${name}-w400-w400.webp`)).statusCode).toBe(404);
    expect(files()).toEqual(before);
    // A stored width is a plain file.
    expect((await get(`/uploads/${name}-w400.webp`)).statusCode).toBe(200);
    expect(files()).toEqual(before);
  });

  it("makes a missing width once, however many ask at once, and then serves the file", async () => {
    const name = path.basename(cover, ".webp");
    fs.rmSync(path.join(uploads, `${name}-w800.webp`));
    const answers = await Promise.all(Array.from({ length: 20 }, () => get(`/uploads/${name}-w800.webp`)));
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.rawPayload.toString("base64"))).size).toBe(1);
    expect(await sharp(answers[0]?.rawPayload).metadata()).toMatchObject({ format: "webp", width: 800 });
    expect(files().filter((file) => file.startsWith(name))).toHaveLength(3);
    // The upload's own largest width has no second name.
    expect((await get(`/uploads/${name}-w1600.webp`)).statusCode).toBe(404);
  });
});
