// Checks the public moderation log:  npm run verify-log -- <site address | exported file.json> [--site <address>]
//                                                                                              [--since saved.json]
// The log's export (GET /api/moderation/log/export) is every entry, each day's signed head, a head signed at the
// export naming its newest entry, and a public key. Given a site, the key is the one the site's actor publishes
// (/ap/actors/site), never the export's own; `--since` checks that an export saved before is a prefix of this one,
// signed with the same key. A changed, missing, cut or reordered entry, or a head the key did not sign, is named and
// the exit code is 1 (2 when the log could not be read).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { verifyLog } from "../src/shared/moderation-log.ts";
import { logExportSchema } from "../src/shared/schemas/moderation.ts";
import { prefixProblems, publishedKey } from "./lib/log-check.ts";

/** A live export older than this was not made for this check (a cache or a replay answered). */
const FRESH_MS = 10 * 60_000;
const isSite = (text: string) => /^https?:\/\//.test(text);

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { site: { type: "string" }, since: { type: "string" } },
});
const source = positionals[0];
if (!source || positionals.length > 1) {
  console.error(
    "Usage: npm run verify-log -- <https://your.site | log.json> [--site https://your.site] [--since saved.json]",
  );
  process.exit(2);
}

async function read(from: string): Promise<unknown> {
  if (isSite(from)) {
    const response = await fetch(new URL("/api/moderation/log/export", from));
    if (!response.ok) throw new Error(`${from} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(fs.readFileSync(from, "utf8"));
}

try {
  const log = logExportSchema.parse(await read(source));
  const site = values.site ?? (isSite(source) ? source : undefined);
  const problems = await verifyLog(log.entries, log.heads, log.publicKey, log.latest);
  if (site) {
    const key = await publishedKey(site);
    if (key !== log.publicKey.x) problems.push(`the export is signed with another key than the one ${site} publishes`);
  }
  if (isSite(source) && log.latest && Math.abs(Date.now() - Date.parse(log.latest.at)) > FRESH_MS)
    problems.push(`the site answered with an export signed at ${log.latest.at}, not now`);
  if (values.since) problems.push(...prefixProblems(logExportSchema.parse(await read(values.since)), log));
  if (problems.length > 0) {
    for (const problem of problems) console.error(`✗ ${problem}`);
    process.exit(1);
  }
  console.log(
    `✓ ${log.entries.length} entries chained, the newest signed at ${log.latest?.at}, ${log.heads.length} daily heads signed`,
  );
  if (site) console.log(`✓ signed with the key ${site} publishes on its actor`);
  else if (!values.since)
    console.log(`! signed with the key the export names (${log.publicKey.x}): pass --site or --since to check it`);
  if (values.since) console.log(`✓ the log saved in ${values.since} is a prefix of this one, with the same key`);
} catch (error) {
  console.error(`Could not check the log: ${(error as Error).message}`);
  process.exit(2);
}
