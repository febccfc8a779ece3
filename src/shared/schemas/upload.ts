import { z } from "../zod.ts";

/**
 * A file field of a multipart form, as the server reads it (its bytes). The OpenAPI document shows it as a binary
 * string; the client sends a File in FormData.
 */
export const uploadSchema = (message: string) =>
  z
    .custom<Uint8Array>((value) => value instanceof Uint8Array, { error: message })
    .check(z.meta({ type: "string", format: "binary" }));

export const photoUploadSchema = z.object({ image: uploadSchema("Image is required") });
