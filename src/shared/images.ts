/**
 * Uploaded images are stored at a few widths, so a phone loads a small one: the upload's own address is the largest,
 * and each smaller width sits beside it as `<name>-w<width>.webp`.
 */
export const IMAGE_WIDTHS = { cover: [400, 800, 1600], photo: [128, 512] } as const;
export type ImageKind = keyof typeof IMAGE_WIDTHS;

/** The address of `url` at `width`; the largest width is `url` itself. Other addresses are returned unchanged. */
export function imageAt(url: string, kind: ImageKind, width: number): string {
  const widths = IMAGE_WIDTHS[kind];
  if (width >= Math.max(...widths) || !/\.webp$/.test(url)) return url;
  return url.replace(/\.webp$/, `-w${width}.webp`);
}

/** A `srcset` of every stored width, for the browser to pick from with `sizes`. */
export function imageSrcSet(url: string, kind: ImageKind): string | undefined {
  if (!/\.webp$/.test(url)) return undefined;
  return IMAGE_WIDTHS[kind].map((width) => `${imageAt(url, kind, width)} ${width}w`).join(", ");
}
