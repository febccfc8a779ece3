import crypto from "node:crypto";
import type { App } from "../../src/server/app.ts";
import { payments } from "../../src/server/db/schema.ts";
import { bearer } from "./users.ts";

/** A multipart form with text fields and an optional image, as Create Blog sends it. */
export function postForm(
  fields: Record<string, string>,
  image?: { data: Buffer; filename: string; type: string },
  fileField = "image",
) {
  const boundary = `----penchain${crypto.randomBytes(8).toString("hex")}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (image) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${image.filename}"\r\nContent-Type: ${image.type}\r\n\r\n`,
      ),
    );
    parts.push(image.data, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

export async function createCategory(
  app: App,
  admin: { token: string },
  // Enough randomness that the permission matrix's ~1,400 categories never draw the same title twice.
  title = `Topic ${crypto.randomBytes(6).toString("hex")}`,
) {
  const response = await app.inject({
    method: "POST",
    url: "/api/category",
    payload: { title },
    headers: bearer(admin),
  });
  if (response.statusCode !== 201) throw new Error(`category failed: ${response.body}`);
  return response.json() as { id: string; title: string };
}

export function submitPost(
  app: App,
  author: { token: string },
  fields: Record<string, string>,
  image?: Parameters<typeof postForm>[1],
) {
  const form = postForm(fields, image);
  return app.inject({
    method: "POST",
    url: "/api/posts",
    payload: form.payload,
    headers: { ...form.headers, ...bearer(author) },
  });
}

export async function createPost(
  app: App,
  author: { token: string },
  category: string,
  overrides: Record<string, string> = {},
) {
  const response = await submitPost(app, author, {
    title: "A post",
    description: "<p>Body</p>",
    category,
    isFeatured: "false",
    ...overrides,
  });
  if (response.statusCode !== 201) throw new Error(`post failed: ${response.body}`);
  return response.json() as {
    id: string;
    title: string;
    image: string | null;
    status: string;
    publishedAt: string | null;
  };
}

/** `reader` likes (or takes back their like of) a post, as the like button does; fails the test if refused. */
export async function likePost(app: App, reader: { token: string }, postId: string) {
  const response = await app.inject({
    method: "PUT",
    url: "/api/posts/likes",
    payload: { postId },
    headers: bearer(reader),
  });
  if (response.statusCode !== 200) throw new Error(`like failed: ${response.statusCode} ${response.body}`);
  return response;
}

/** `writer` comments under a post, as the comment form does; fails the test if refused. Answers the comment. */
export async function commentOn(app: App, writer: { token: string }, postId: string, description: string) {
  const response = await app.inject({
    method: "POST",
    url: "/api/comments",
    payload: { postId, description },
    headers: bearer(writer),
  });
  if (response.statusCode !== 201) throw new Error(`comment failed: ${response.statusCode} ${response.body}`);
  return response.json() as { id: string };
}

/** A verified featured fee of `userId` for `postId`, written as the payment check writes one (chain 31337). */
export async function recordFeaturedFee(app: App, userId: string, postId: string, txHash: `0x${string}`) {
  await app.db.insert(payments).values({
    chainId: 31337,
    txHash,
    purpose: "featured",
    payer: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    recipient: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
    amountWei: "10000000000000000",
    blockNumber: 1n,
    confirmations: 1,
    userId,
    postId,
  });
}
