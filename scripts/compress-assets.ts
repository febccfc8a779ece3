// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy of every built file worth compressing, at the
// strongest settings, once. The server sends them to browsers that accept them (@fastify/static preCompressed).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const DIR = path.resolve(import.meta.dirname, "../dist/client");
const COMPRESSIBLE = /\.(js|css|svg|json|txt|xml|map|webmanifest)$/;

let count = 0;
for (const entry of fs.readdirSync(DIR, { recursive: true, withFileTypes: true })) {
  const file = path.join(entry.parentPath, entry.name);
  if (!entry.isFile() || !COMPRESSIBLE.test(file) || fs.statSync(file).size < 1024) continue;
  const data = fs.readFileSync(file);
  fs.writeFileSync(
    `${file}.br`,
    zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  );
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  count += 1;
}
console.log(`Compressed ${count} built files (brotli and gzip).`);
