import crypto from "node:crypto";
import type Sharp from "sharp";
import { IMAGE_WIDTHS, type ImageKind, imageAt } from "#shared/images.ts";
import { HttpError } from "../../http-error.ts";
import type { Storage } from "../../infra/storage.ts";

const PIXEL_LIMIT = 40_000_000;
/** libwebp's effort 2 of 6: half the time of its default for files about 4 % larger. */
const FULL_WEBP = { quality: 82, effort: 0 };
const SMALLER_WEBP = { quality: 80, effort: 0 };

const KINDS = {
  photo: { formats: ["jpeg", "png", "gif", "webp"], label: "JPEG, PNG or GIF", width: 512, height: 512, fit: "cover" },
  cover: { formats: ["jpeg", "png"], label: "JPEG or PNG", width: 1600, height: 1600, fit: "inside" },
} as const;

/** sharp (libvips), loaded at the first image: a server that is only read never pays its memory. */
let loaded: Promise<typeof Sharp> | undefined;
const loadSharp = () =>
  (loaded ??= import("sharp").then((module) => {
    // Each image is seen once: libvips' cache of operations would only hold memory (up to 50 MB by default).
    module.default.cache(false);
    return module.default;
  }));

/** A narrower WebP of an image already processed (never wider than it is). */
export const resizeTo = async (webp: Uint8Array, width: number) =>
  (await loadSharp())(webp).resize({ width, withoutEnlargement: true }).webp(SMALLER_WEBP).toBuffer();

/** Stores an upload at every width (see src/shared/images.ts); answers the largest one's address. */
export async function storeImage(storage: Storage, upload: Uint8Array, kind: ImageKind) {
  const image = await processImage(upload, kind);
  await Promise.all(image.variants.map((variant) => storage.put(variant.key, variant.data, image.contentType)));
  return storage.put(image.key, image.data, image.contentType);
}

/** Removes an image with its smaller widths. */
export async function removeImage(storage: Storage, url: string, kind: ImageKind) {
  await Promise.all(IMAGE_WIDTHS[kind].map((width) => storage.remove(imageAt(url, kind, width))));
}

/**
 * Judges the type by content (never the file name), then re-encodes: orientation applied, metadata stripped,
 * size bounded. What comes out is always a fresh WebP under a random name.
 */
export async function processImage(input: Uint8Array, kind: keyof typeof KINDS) {
  const rules = KINDS[kind];
  const sharp = await loadSharp();
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
    const source = sharp(input, { limitInputPixels: PIXEL_LIMIT }).rotate();
    const full = await source
      .clone()
      .resize({ width: rules.width, height: rules.height, fit: rules.fit, withoutEnlargement: true })
      .webp(FULL_WEBP)
      .toBuffer({ resolveWithObject: true });
    const key = `${crypto.randomUUID()}.webp`;
    // Each smaller width straight from the source, framed as the full size is: no pixels cross into JavaScript.
    const { width: fullWidth, height: fullHeight } = full.info;
    const variants = await Promise.all(
      IMAGE_WIDTHS[kind].slice(0, -1).map(async (wanted) => {
        const width = Math.min(wanted, fullWidth);
        const height = Math.max(1, Math.round((width * fullHeight) / fullWidth));
        const data = await source.clone().resize({ width, height, fit: rules.fit }).webp(SMALLER_WEBP).toBuffer();
        return { key: imageAt(key, kind, wanted), data };
      }),
    );
    return { data: full.data, contentType: "image/webp", key, variants };
  } catch {
    throw new HttpError(415, "The image could not be read. Please try another file.");
  }
}
