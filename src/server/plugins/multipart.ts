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
