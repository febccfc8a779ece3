import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { AwsClient } from "aws4fetch";
import type { AppConfig } from "../env.ts";

/** Where uploaded files live; `put` returns the URL the browser loads. */
export interface Storage {
  put(key: string, data: Buffer, contentType: string): Promise<string>;
  remove(url: string): Promise<void>;
  /** A file `put` stored, by its URL, to read as a stream; null when there is none (or the URL is not ours). */
  open(url: string): Promise<{ stream: Readable; size: number } | null>;
}

function localStorage(dir: string): Storage {
  return {
    async put(key, data) {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, key), data);
      return `/uploads/${key}`;
    },
    async remove(url) {
      if (!url.startsWith("/uploads/")) return;
      await fs.rm(path.join(dir, path.basename(url)), { force: true });
    },
    async open(url) {
      if (!url.startsWith("/uploads/")) return null;
      const file = path.join(dir, path.basename(url));
      const stat = await fs.stat(file).catch(() => null);
      return stat?.isFile() ? { stream: createReadStream(file), size: stat.size } : null;
    },
  };
}

function s3Storage(s3: NonNullable<AppConfig["s3"]>): Storage {
  const client = new AwsClient({
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    region: s3.region,
    service: "s3",
  });
  const base = `${(s3.endpoint ?? `https://s3.${s3.region}.amazonaws.com`).replace(/\/$/, "")}/${s3.bucket}`;
  return {
    async put(key, data, contentType) {
      const response = await client.fetch(`${base}/${key}`, {
        method: "PUT",
        body: new Uint8Array(data),
        headers: { "content-type": contentType, "cache-control": "public, max-age=31536000, immutable" },
      });
      if (!response.ok) throw new Error(`S3 upload failed with ${response.status}`);
      return `${base}/${key}`;
    },
    async remove(url) {
      if (!url.startsWith(`${base}/`)) return;
      await client.fetch(url, { method: "DELETE" });
    },
    async open(url) {
      if (!url.startsWith(`${base}/`)) return null;
      const response = await client.fetch(url);
      if (!response.ok || !response.body) return null;
      const size = Number(response.headers.get("content-length"));
      return { stream: Readable.fromWeb(response.body as never), size: Number.isFinite(size) ? size : 0 };
    },
  };
}

export function createStorage(config: Pick<AppConfig, "s3" | "dataDir">): Storage {
  return config.s3 ? s3Storage(config.s3) : localStorage(path.resolve(config.dataDir, "uploads"));
}
