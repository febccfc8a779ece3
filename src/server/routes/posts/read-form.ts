import type { FastifyRequest } from "fastify";
import { HttpError } from "../../http-error.ts";
import { assertCleanText } from "../../plugins/input-guard.ts";

/** Create Blog arrives as multipart (fields plus an optional `image`); a JSON body without an image works too. */
export async function readPostForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, unknown>; image?: Buffer }> {
  if (!request.isMultipart()) return { fields: (request.body ?? {}) as Record<string, unknown> };
  const fields: Record<string, unknown> = {};
  let image: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === "field") {
      fields[part.fieldname] = part.value;
      continue;
    }
    const data = await part.toBuffer().catch((error) => {
      if (error?.statusCode === 413) throw new HttpError(413, "The image must be at most 5 MB");
      throw error;
    });
    if (part.fieldname === "image" && data.length > 0) image = data;
  }
  assertCleanText(fields);
  return image ? { fields, image } : { fields };
}
