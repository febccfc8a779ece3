import sharp from "sharp";
import type { App } from "../../src/server/app.ts";

/** A real JPEG with EXIF metadata (camera make and GPS-ish comment) for testing that uploads strip it. */
export function jpegWithExif(width = 64, height = 48) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Make: "SecretCam", ImageDescription: "home at 51.5N 0.1W" } })
    .toBuffer();
}

export function png(width = 32, height = 32) {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** A multipart body with one file field, as a browser's FormData would send it. */
export function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = `----penchain${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { payload, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** PUT /api/users/profilephoto-upload with one file, as the profile page sends it. */
export function uploadPhoto(app: App, session: { token: string }, body: ReturnType<typeof multipart>) {
  return app.inject({
    method: "PUT",
    url: "/api/users/profilephoto-upload",
    payload: body.payload,
    headers: { ...body.headers, authorization: `Bearer ${session.token}` },
  });
}
