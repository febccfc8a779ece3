import crypto from "node:crypto";
import sharp from "sharp";
import { HttpError } from "../http-error.ts";

const PIXEL_LIMIT = 40_000_000;

const KINDS = {
  photo: { formats: ["jpeg", "png", "gif", "webp"], label: "JPEG, PNG or GIF", width: 512, height: 512, fit: "cover" },
  cover: { formats: ["jpeg", "png"], label: "JPEG or PNG", width: 1600, height: 1600, fit: "inside" },
} as const;

/**
 * Judges the type by content (never the file name), then re-encodes: orientation applied, metadata stripped,
 * size bounded. What comes out is always a fresh WebP under a random name.
 */
export async function processImage(input: Uint8Array, kind: keyof typeof KINDS) {
  const rules = KINDS[kind];
  // Reading the header decodes no pixels, so it needs no pixel limit; the size is judged from it.
  const metadata = await sharp(input, { limitInputPixels: false })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.format || !(rules.formats as readonly string[]).includes(metadata.format)) {
    throw new HttpError(415, `Only ${rules.label} images are allowed`);
  }
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > PIXEL_LIMIT) {
    throw new HttpError(413, `The image is too large: at most ${PIXEL_LIMIT / 1_000_000} megapixels, please resize it`);
  }
  try {
    const data = await sharp(input, { limitInputPixels: PIXEL_LIMIT })
      .rotate()
      .resize({ width: rules.width, height: rules.height, fit: rules.fit, withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer();
    return { data, contentType: "image/webp", key: `${crypto.randomUUID()}.webp` };
  } catch {
    throw new HttpError(415, "The image could not be read. Please try another file.");
  }
}
