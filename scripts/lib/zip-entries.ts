import yauzl from "yauzl";

/** The entries of a zip file whose names `wanted` accepts, each read whole up to `maxBytes` (yauzl checks names). */
export function readZipEntries(path: string, wanted: (name: string) => boolean, maxBytes: number) {
  return new Promise<Map<string, Buffer>>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        if (!wanted(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > maxBytes) return reject(new Error(`${entry.fileName} is over ${maxBytes} bytes`));
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}
