// Imports an archive from the command line, for operators:
//   npm run import -- <wxr|ghost|substack|markdown> <file> --user <email> [--fetch-images] [--site --authors "old=email,…"]
// The same job as the Import screen (the file is checked whole first, then read a piece at a time); mail it queues
// goes out from the outbox of the running server. Uses DATABASE_URL, or the PGlite folder under DATA_DIR (stop the
// server first: one process owns that folder).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import { importRequestSchema } from "#shared/schemas/imports.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { imports, users } from "../src/server/db/schema.ts";
import { loadConfig } from "../src/server/env.ts";
import { HttpError } from "../src/server/http-error.ts";
import { createBus } from "../src/server/infra/bus.ts";
import { createMailer } from "../src/server/infra/mailer.ts";
import { createStorage } from "../src/server/infra/storage.ts";
import { reportStartupError } from "../src/server/main.ts";
import type { AuthUser } from "../src/server/services/core/auth-user.ts";
import { runNextImport } from "../src/server/services/importing/import-job.ts";
import { startImport, uploadDir } from "../src/server/services/importing/import-requests.ts";

const USAGE =
  'Usage: npm run import -- <wxr|ghost|substack|markdown> <file> --user <email> [--fetch-images] [--site --authors "old=email,…"]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    user: { type: "string" },
    "fetch-images": { type: "boolean", default: false },
    site: { type: "boolean", default: false },
    authors: { type: "string", default: "" },
  },
});
const [format, file] = positionals;
if (!format || !file || !values.user) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const config = loadConfig();
  const log = pino({ level: "warn" });
  const database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  await database.migrate();
  const [user] = await database.db.select().from(users).where(sql`lower(${users.email}) = lower(${values.user})`);
  if (!user) throw new Error(`No user has the e-mail ${values.user}.`);
  // The upload is a copy: the job removes its file when done, never the operator's.
  const copy = path.join(uploadDir(config), `cli-${process.pid}.part`);
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.copyFileSync(file, copy);
  const request = importRequestSchema.parse({
    format,
    fetchImages: String(values["fetch-images"]),
    site: String(values.site),
    authors: values.authors.split(",").join("\n"),
    file: { path: copy, name: path.basename(file) },
  });
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    log,
  });
  // Pages a running server keeps in memory show the new posts within READ_CACHE_MAX_AGE_MS.
  // Imported posts are old news: nobody is told of them, so this process needs no bus beyond itself.
  const bus = createBus({ log });
  const deps = { db: database.db, config, storage: createStorage(config), mailer, bus, log, changed: () => {} };
  const started = await startImport(deps, user as unknown as AuthUser, request);
  console.log(`Found ${started.total} items in ${started.fileName}; importing…`);
  const timer = setInterval(async () => {
    const [row] = await database.db.select().from(imports).where(eq(imports.id, started.id));
    if (row) process.stdout.write(`\r${row.done} of ${row.total} items`);
  }, 1000);
  while (await runNextImport(deps));
  clearInterval(timer);
  const [row] = await database.db.select().from(imports).where(eq(imports.id, started.id));
  console.log(`\r${row?.done} of ${row?.total} items: ${row?.status}${row?.error ? ` (${row.error})` : ""}`);
  for (const error of row?.errors ?? []) console.log(`  ${error.item}: ${error.reason}`);
  await mailer.close();
  await bus.close();
  await database.close();
  process.exit(row?.status === "done" ? 0 : 1);
} catch (error) {
  // A refused archive says why, as the Import screen would.
  if (error instanceof HttpError) {
    console.error(error.message);
    process.exit(1);
  }
  reportStartupError(error);
}
