import { asc } from "drizzle-orm";
import { domainSchema } from "#shared/schemas/federation.ts";
import { oneLine } from "#shared/text.ts";
import { blockedDomains } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { csvField } from "../../infra/csv.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { blockDomain, normalHost } from "./domains.ts";

/** Mastodon's header for domain block lists, which other servers and shared lists (e.g. Oliphant's) use too. */
export const BLOCKLIST_HEADER = "#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate";
const MAX_ROWS = 10_000;

/** One CSV line's fields (RFC 4180: quoted fields may hold commas and doubled quotes). */
function fields(line: string): string[] {
  const out: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') {
      field += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (char === "," && !quoted) {
      out.push(field);
      field = "";
    } else field += char;
  }
  out.push(field);
  return out.map((value) => value.trim());
}

/** The site's domain blocks in Mastodon's CSV. */
export async function exportBlocklist(deps: Pick<Deps, "db">) {
  const rows = await deps.db.select().from(blockedDomains).orderBy(asc(blockedDomains.domain));
  const lines = rows.map((row) =>
    [row.domain, row.severity, "false", "false", row.publicComment, "false"].map(csvField).join(","),
  );
  return `${[BLOCKLIST_HEADER, ...lines].join("\n")}\n`;
}

export interface ImportResult {
  imported: number;
  skipped: { line: number; reason: string }[];
}

/**
 * Imports a shared block list in Mastodon's CSV: each `suspend` or `silence` row blocks its domain at that level (a
 * suspension drops the domain's followers, replies and reactions); `noop` rows, obfuscated domains (`*`), the site's
 * own domain and anything unreadable are skipped and named. Every value is hostile until checked.
 */
export async function importBlocklist(
  deps: Pick<Deps, "db" | "changed">,
  admin: AuthUser,
  csv: string,
  ownHostname: string,
): Promise<ImportResult> {
  const lines = csv.replace(/^\uFEFF/, "").split(/\r?\n/);
  if (lines.length > MAX_ROWS + 1) throw new HttpError(400, `A block list has at most ${MAX_ROWS} rows`);
  const result: ImportResult = { imported: 0, skipped: [] };
  let columns = ["#domain", "#severity", "#reject_media", "#reject_reports", "#public_comment", "#obfuscate"];
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue;
    const values = fields(line);
    if (index === 0 && values[0]?.startsWith("#")) {
      columns = values.map((value) => value.toLowerCase());
      continue;
    }
    const value = (name: string) => values[columns.indexOf(name)] ?? "";
    const skip = (reason: string) => result.skipped.push({ line: index + 1, reason });
    const raw = value("#domain") || values[0] || "";
    if (raw.includes("*")) {
      skip("an obfuscated domain names no domain");
      continue;
    }
    const domain = domainSchema.safeParse(raw);
    if (!domain.success) {
      skip("not a domain");
      continue;
    }
    const severity = (value("#severity") || "suspend").toLowerCase();
    if (severity === "noop") {
      skip("noop");
      continue;
    }
    if (severity !== "suspend" && severity !== "silence") {
      skip(`unknown severity "${severity.slice(0, 20)}"`);
      continue;
    }
    if (normalHost(domain.data) === ownHostname) {
      skip("the site's own domain");
      continue;
    }
    const publicComment = oneLine(value("#public_comment")).slice(0, 500);
    await blockDomain(deps, admin, domain.data, ownHostname, { severity, publicComment });
    result.imported++;
  }
  // Blocked domains are read apart from the cached public reads, also when every line was skipped (decision 010).
  deps.changed(NOTHING_PUBLIC);
  return result;
}
