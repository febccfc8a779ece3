// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy of every built file worth compressing, at the
// strongest settings, once. The server sends them to browsers that accept them (@fastify/static preCompressed).
// Source maps are left as they are: only developer tools fetch them, and compressing their 12 MB took most of the
// 21 s this step used to take. The files are compressed on libuv's threads, several at a time.
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const DIR = path.resolve(import.meta.dirname, "../dist/client");
const COMPRESSIBLE = /\.(html|js|css|svg|json|txt|xml|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const files = fs
  .readdirSync(DIR, { recursive: true, withFileTypes: true })
  .map((entry) => ({ entry, file: path.join(entry.parentPath, entry.name) }))
  .filter(({ entry, file }) => entry.isFile() && COMPRESSIBLE.test(file) && fs.statSync(file).size >= 1024)
  .map(({ file }) => file);

await Promise.all(
  files.map(async (file) => {
    const data = await fs.promises.readFile(file);
    const params = {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    };
    const [br, gz] = await Promise.all([brotli(data, { params }), gzip(data, { level: 9 })]);
    await Promise.all([fs.promises.writeFile(`${file}.br`, br), fs.promises.writeFile(`${file}.gz`, gz)]);
  }),
);
console.log(`Compressed ${files.length} built files (brotli and gzip).`);
