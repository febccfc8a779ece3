// Checks the public moderation log offline:  npm run verify-log -- <site address | exported file.json>
// The log's export (GET /api/moderation/log/export) is every entry, each day's signed head, and the site's public
// key. A changed, missing or reordered entry, or a head the key did not sign, is named and the exit code is 1.
import fs from "node:fs";
import { verifyLog } from "../src/shared/moderation-log.ts";
import { logExportSchema } from "../src/shared/schemas/moderation.ts";

const source = process.argv[2];
if (!source) {
  console.error("Usage: npm run verify-log -- <https://your.site | log.json>");
  process.exit(2);
}

async function read(from: string): Promise<unknown> {
  if (/^https?:\/\//.test(from)) {
    const response = await fetch(new URL("/api/moderation/log/export", from));
    if (!response.ok) throw new Error(`${from} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(fs.readFileSync(from, "utf8"));
}

try {
  const log = logExportSchema.parse(await read(source));
  const problems = await verifyLog(log.entries, log.heads, log.publicKey);
  if (problems.length > 0) {
    for (const problem of problems) console.error(`✗ ${problem}`);
    process.exit(1);
  }
  console.log(`✓ ${log.entries.length} entries chained, ${log.heads.length} daily heads signed by the site's key`);
} catch (error) {
  console.error(`Could not check the log: ${(error as Error).message}`);
  process.exit(2);
}
