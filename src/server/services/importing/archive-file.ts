import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type yauzl from "yauzl";

/** An archive refused whole, before anything is written: its message is shown to the importer as it is. */
export class HostileArchive extends Error {}

/** What an archive may hold at most: files, their sizes unpacked, and how much smaller they may claim to be packed. */
export const ARCHIVE_LIMITS = {
  entries: 20_000,
  totalBytes: 4 * 1024 ** 3,
  entryBytes: 512 * 1024 ** 2,
  imageBytes: 25 * 1024 ** 2,
  /** Text compresses about 10:1, images hardly; a zip bomb's ratios run to thousands. */
  ratio: 200,
} as const;

const mib = (bytes: number) => `${Math.round(bytes / 1024 ** 2)} MB`;

/**
 * An uploaded file, a zip or a single document, read from disk a piece at a time: a zip's directory is read once
 * and checked whole (names that climb out, sizes, a bomb's ratio) before any file in it is opened.
 */
export interface ArchiveFile {
  readonly isZip: boolean;
  /** The paths inside a zip (none for a plain file). */
  names(): string[];
  /** A file inside the zip, or (`null`) the uploaded file itself. */
  open(name: string | null): Promise<Readable>;
  read(name: string, maxBytes?: number): Promise<Buffer>;
  /** The file in the zip whose path ends like `wanted`, best match first (an image's old address). */
  find(wanted: string): string | null;
  close(): void;
}

const isZipFile = (file: string) => {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(4);
    fs.readSync(fd, head, 0, 4, 0);
    return head.readUInt32LE(0) === 0x04034b50;
  } finally {
    fs.closeSync(fd);
  }
};

const openZip = async (file: string) => {
  const { default: unzip } = await import("yauzl");
  return new Promise<yauzl.ZipFile>((resolve, reject) =>
    unzip.open(file, { lazyEntries: true, autoClose: false, strictFileNames: true }, (error, zip) =>
      error ? reject(error) : resolve(zip),
    ),
  );
};

async function readDirectory(zip: yauzl.ZipFile) {
  const entries = new Map<string, yauzl.Entry>();
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      if (entries.size >= ARCHIVE_LIMITS.entries)
        return reject(new HostileArchive(`The archive holds more than ${ARCHIVE_LIMITS.entries} files.`));
      const size = entry.uncompressedSize;
      total += size;
      if (size > ARCHIVE_LIMITS.entryBytes)
        return reject(new HostileArchive(`"${entry.fileName}" is larger than ${mib(ARCHIVE_LIMITS.entryBytes)}.`));
      if (total > ARCHIVE_LIMITS.totalBytes)
        return reject(new HostileArchive(`The archive unpacks to more than ${mib(ARCHIVE_LIMITS.totalBytes)}.`));
      if (size > 1024 ** 2 && size / Math.max(entry.compressedSize, 1) > ARCHIVE_LIMITS.ratio)
        return reject(new HostileArchive(`"${entry.fileName}" unpacks to far more than it holds: a zip bomb.`));
      if (!entry.fileName.endsWith("/")) entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve());
    zip.on("error", (error: Error) =>
      reject(
        /path|file name|relative/i.test(error.message)
          ? new HostileArchive(`The archive holds a file whose name leaves it (${error.message}).`)
          : new HostileArchive(`The file is not a zip archive we can read (${error.message}).`),
      ),
    );
    zip.readEntry();
  });
  return entries;
}

export async function openArchive(file: string): Promise<ArchiveFile> {
  if (!isZipFile(file)) {
    const size = fs.statSync(file).size;
    if (size > ARCHIVE_LIMITS.entryBytes)
      throw new HostileArchive(`The file is larger than ${mib(ARCHIVE_LIMITS.entryBytes)}.`);
    return {
      isZip: false,
      names: () => [],
      open: async () => fs.createReadStream(file),
      read: async () => {
        throw new HostileArchive("A single file holds no images: upload a zip to bring them.");
      },
      find: () => null,
      close() {},
    };
  }
  const zip = await openZip(file).catch((error: Error) => {
    throw new HostileArchive(`The file is not a zip archive we can read (${error.message}).`);
  });
  let entries: Map<string, yauzl.Entry>;
  try {
    entries = await readDirectory(zip);
  } catch (error) {
    zip.close();
    throw error;
  }
  const byTail = new Map<string, string>();
  for (const name of entries.keys()) {
    const parts = name.toLowerCase().split("/");
    for (let i = 0; i < parts.length; i++) {
      const tail = parts.slice(i).join("/");
      if (!byTail.has(tail)) byTail.set(tail, name);
    }
  }
  const open = (name: string | null) =>
    new Promise<Readable>((resolve, reject) => {
      const entry = name === null ? undefined : entries.get(name);
      if (!entry) return reject(new Error(`${name} is not in the archive`));
      zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
    });
  return {
    isZip: true,
    names: () => [...entries.keys()],
    open,
    async read(name, maxBytes = ARCHIVE_LIMITS.imageBytes) {
      const entry = entries.get(name);
      if (!entry) throw new Error(`${name} is not in the archive`);
      if (entry.uncompressedSize > maxBytes) throw new Error(`${name} is larger than ${mib(maxBytes)}`);
      const chunks: Buffer[] = [];
      for await (const chunk of await open(name)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    find(wanted) {
      const clean = path.posix
        .normalize(decodeURIComponent(wanted).replace(/^[a-z]+:\/\/[^/]+/i, ""))
        .replace(/^(\.\.\/|\/)+/, "")
        .toLowerCase();
      const parts = clean.split("/").filter(Boolean);
      // The longest tail that names a file: `wp-content/uploads/2019/05/a.jpg` before `a.jpg`.
      for (let i = 0; i < parts.length; i++) {
        const hit = byTail.get(parts.slice(i).join("/"));
        if (hit && (i < parts.length - 1 || parts.length === 1)) return hit;
      }
      return null;
    },
    close: () => zip.close(),
  };
}

/** The text of a file, a chunk at a time, as UTF-8 (a BOM dropped). */
export async function* textChunks(stream: Readable) {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of stream) yield decoder.decode(chunk as Buffer, { stream: true });
  yield decoder.decode();
}
