import path from "node:path";
import ipaddr from "ipaddr.js";
import { HttpError } from "../../http-error.ts";
import { agents, isPublicAddress } from "../../infra/delivery-guard.ts";
import type { Deps } from "../core/deps.ts";
import { storeImage } from "../core/images.ts";
import { ARCHIVE_LIMITS, type ArchiveFile } from "./archive-file.ts";

const FETCH_TIMEOUT_MS = 15_000;
const MAX_REDIRECTS = 3;

/** Why an image was not fetched, the same whatever happened: a name that resolves privately, or not at all, or a
 * refused connection would otherwise tell an importer what lies inside the server's network. */
export const COULD_NOT_FETCH = "could not fetch it";

/**
 * An image from the old site, when the importer asked for it: https only, to public addresses only (checked as the
 * connection is made, and again at each redirect), at most 25 MB.
 */
export async function fetchImage(url: string): Promise<Buffer> {
  let address = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const target = URL.parse(address);
    if (target?.protocol !== "https:") throw new Error("only https images are fetched");
    const host = target.hostname.replace(/^\[|\]$/g, "");
    if (ipaddr.isValid(host) && !isPublicAddress(host)) throw new Error(COULD_NOT_FETCH);
    const answer = await fetch(target, {
      redirect: "manual",
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      dispatcher: (await agents()).publicOnly,
    } as RequestInit).catch(() => {
      throw new Error(COULD_NOT_FETCH);
    });
    if (answer.status >= 300 && answer.status < 400 && answer.headers.get("location")) {
      await answer.body?.cancel();
      address = new URL(answer.headers.get("location") as string, target).href;
      continue;
    }
    if (!answer.ok || !answer.body) throw new Error(COULD_NOT_FETCH);
    if (Number(answer.headers.get("content-length") ?? 0) > ARCHIVE_LIMITS.imageBytes)
      throw new Error("it is over 25 MB");
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of answer.body) {
        size += chunk.length;
        if (size > ARCHIVE_LIMITS.imageBytes) break;
        chunks.push(chunk);
      }
    } catch {
      throw new Error(COULD_NOT_FETCH);
    }
    if (size > ARCHIVE_LIMITS.imageBytes) throw new Error("it is over 25 MB");
    return Buffer.concat(chunks);
  }
  throw new Error(COULD_NOT_FETCH);
}

/**
 * Brings an archive's images into storage, re-encoded like uploads: from the archive itself when it holds the file,
 * from the old site when the importer asked (else an https address stays as it is, and anything else is dropped).
 * Each image is brought once per import.
 */
export function imageBringer(deps: Pick<Deps, "storage">, archive: ArchiveFile, fetchImages: boolean) {
  const brought = new Map<string, Promise<string | null>>();
  const bring = async (ref: string, baseDir: string | undefined): Promise<string | null> => {
    const isUrl = /^[a-z][a-z0-9+.-]*:/i.test(ref);
    const entry =
      (!isUrl && !ref.startsWith("/") && baseDir !== undefined ? archive.find(path.posix.join(baseDir, ref)) : null) ??
      (isUrl && !/^https?:/i.test(ref) ? null : archive.find(ref));
    if (entry) return storeImage(deps.storage, await archive.read(entry), "cover");
    if (fetchImages && ref.startsWith("https://")) return storeImage(deps.storage, await fetchImage(ref), "cover");
    return null;
  };
  return (ref: string, baseDir?: string) => {
    const key = `${baseDir ?? ""}\n${ref}`;
    let image = brought.get(key);
    if (!image) {
      image = bring(ref, baseDir);
      if (brought.size < 10_000) brought.set(key, image);
    }
    return image;
  };
}

/** Why an image was not brought, for the item's error line. */
export const imageFailure = (ref: string, error: unknown) =>
  `image ${ref.slice(0, 200)}: ${error instanceof HttpError ? error.message : (error as Error).message}`;
