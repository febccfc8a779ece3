import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MAX_UPLOAD_BYTES } from "#shared/constants.ts";
import { HttpError } from "../http-error.ts";
import { assertCleanText } from "./input-guard.ts";

/** Uploads are streamed and capped: 5 MB, one file, a few text fields. */
export async function registerMultipart(app: FastifyInstance) {
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 1024 * 1024 },
  });
}

/**
 * preValidation for routes that take a form with a file: the parts become the body (text fields as strings, a
 * non-empty file as its bytes under its field name), so the route's body schema validates them like JSON, and the
 * OpenAPI document describes them. A JSON body passes through unchanged.
 */
export async function multipartBody(request: FastifyRequest) {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer> = {};
  for await (const part of request.parts()) {
    if (part.type === "field") {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    const data = await part.toBuffer().catch((error) => {
      if (error?.statusCode === 413) throw new HttpError(413, "The image must be at most 5 MB");
      throw error;
    });
    if (data.length > 0) files[part.fieldname] = data;
  }
  assertCleanText(fields);
  request.body = { ...fields, ...files };
}

/**
 * preValidation for a large upload (an archive to import): the file is streamed to `dir` as it arrives, never held
 * in memory, and becomes `{ path, name }` in the body; over `maxBytes` it is removed and refused. The service that
 * takes it removes the file when done with it.
 */
export function uploadToDisk(dir: string, maxBytes: number, tooLarge: string) {
  return async (request: FastifyRequest) => {
    if (!request.isMultipart()) return;
    const fields: Record<string, string> = {};
    let file: { path: string; name: string } | undefined;
    try {
      for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1 } })) {
        if (part.type === "field") {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        fs.mkdirSync(dir, { recursive: true });
        const where = path.join(dir, `${crypto.randomUUID()}.part`);
        file = { path: where, name: path.basename(part.filename || "archive") };
        await pipeline(part.file, fs.createWriteStream(where));
        if (part.file.truncated) throw new HttpError(413, tooLarge);
      }
    } catch (error) {
      if (file) fs.rmSync(file.path, { force: true });
      if ((error as { statusCode?: number }).statusCode === 413) throw new HttpError(413, tooLarge);
      throw error;
    }
    if (file && fs.statSync(file.path).size === 0) {
      fs.rmSync(file.path, { force: true });
      file = undefined;
    }
    assertCleanText(fields);
    request.body = { ...fields, ...(file ? { file } : {}) };
  };
}
