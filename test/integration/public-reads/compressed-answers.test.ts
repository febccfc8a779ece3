import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { pgliteTarget } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

const decode = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync } as const;

describe("cached answers as browsers ask for them (Accept-Encoding)", () => {
  let app: App;
  let reader: Awaited<ReturnType<typeof signUp>>;
  let postId: string;
  beforeAll(async () => {
    app = await buildTestApp(await pgliteTarget.open());
    const author = await signUp(app);
    await makeAdmin(app, author.id);
    reader = await signUp(app);
    const category = await createCategory(app, author);
    // Well over the 1 KB below which nothing is compressed.
    const description = `<p>${"A sentence about blocks and what they carry. ".repeat(40)}</p>`;
    for (let i = 0; i < 6; i++) postId = (await createPost(app, author, category.title, { description })).id;
  });
  afterAll(() => app.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: "GET", url, headers });

  it.each(["/api/posts", "/api/posts/{id}", "/rss.xml"])(
    "%s decompresses to the identity bytes, br and gzip",
    async (path) => {
      const url = path.replace("{id}", postId);
      for (const signedIn of [false, true]) {
        const auth = signedIn && path.startsWith("/api") ? bearer(reader) : {};
        const identity = await get(url, auth);
        expect(identity.headers["content-encoding"]).toBeUndefined();
        expect(identity.headers.vary).toMatch(/accept-encoding/i);
        for (const encoding of ["br", "gzip"] as const) {
          const compressed = await get(url, { ...auth, "accept-encoding": encoding });
          expect(compressed.headers["content-encoding"]).toBe(encoding);
          expect(compressed.headers.vary).toMatch(/accept-encoding/i);
          expect(compressed.headers["content-type"]).toBe(identity.headers["content-type"]);
          expect(compressed.rawPayload.length).toBeLessThan(identity.rawPayload.length);
          expect(decode[encoding](compressed.rawPayload).equals(identity.rawPayload)).toBe(true);
          expect(compressed.headers.etag).toBe(identity.headers.etag);
        }
      }
    },
  );

  it("prefers brotli, and still answers 304 to a compressed revalidation", async () => {
    const first = await get("/api/posts", { "accept-encoding": "gzip, deflate, br" });
    expect(first.headers["content-encoding"]).toBe("br");
    const again = await get("/api/posts", {
      "accept-encoding": "gzip, deflate, br",
      "if-none-match": String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    // A client that takes neither gets the bytes as they are.
    expect((await get("/api/posts", { "accept-encoding": "identity" })).headers["content-encoding"]).toBeUndefined();
  });

  it("compresses a cached answer once per encoding, not once per request", async () => {
    // Compressed on libuv's threads (zlib's callback functions), never on the event loop.
    const brotli = vi.spyOn(zlib, "brotliCompress");
    const gzip = vi.spyOn(zlib, "gzip");
    const sync = [vi.spyOn(zlib, "brotliCompressSync"), vi.spyOn(zlib, "gzipSync")];
    try {
      const like = () =>
        app.inject({ method: "PUT", url: "/api/posts/likes", headers: bearer(reader), payload: { postId } });
      await like(); // the answer earlier tests compressed is dropped
      await get(`/api/posts/${postId}`); // made again and cached, not compressed yet
      brotli.mockClear();
      gzip.mockClear();
      for (let i = 0; i < 5; i++) {
        await get(`/api/posts/${postId}`, { "accept-encoding": "br" });
        await get(`/api/posts/${postId}`, { "accept-encoding": "gzip" });
      }
      expect(brotli).toHaveBeenCalledTimes(1);
      expect(gzip).toHaveBeenCalledTimes(1);
      // Readers who ask at once for an answer not compressed yet share one compression (a like taken back and
      // given again drops the answer, whose counts are as they were).
      await like();
      await like();
      await get(`/api/posts/${postId}`);
      brotli.mockClear();
      const together = await Promise.all(
        Array.from({ length: 10 }, () => get(`/api/posts/${postId}`, { "accept-encoding": "br" })),
      );
      expect(brotli).toHaveBeenCalledTimes(1);
      expect(new Set(together.map((answer) => answer.rawPayload.toString("base64"))).size).toBe(1);
      expect(
        JSON.parse(zlib.brotliDecompressSync(together[0]?.rawPayload ?? Buffer.alloc(0)).toString()),
      ).toMatchObject({
        id: postId,
        likesCount: 1,
      });
      brotli.mockClear();
      // Taking the like back changes the post's counts: its answer is made, and compressed, once more.
      await like();
      const unliked = await get(`/api/posts/${postId}`, { "accept-encoding": "br" });
      expect(JSON.parse(zlib.brotliDecompressSync(unliked.rawPayload).toString()).likesCount).toBe(0);
      await get(`/api/posts/${postId}`, { "accept-encoding": "br" });
      expect(brotli).toHaveBeenCalledTimes(1);
      for (const spy of sync) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of [brotli, gzip, ...sync]) spy.mockRestore();
    }
  });
});
