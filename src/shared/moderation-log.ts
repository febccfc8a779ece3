/**
 * The public moderation log's chain, the same on the server and in `npm run verify-log`: each entry carries the
 * SHA-256 of the one before, and each day's last entry (its head) is signed with the site's Ed25519 key, as is the
 * newest entry at every export (`LatestHead`, with the time it was signed). Editing or deleting any entry changes
 * every hash after it, and cutting the newest ones leaves them uncovered, so the log can be checked offline.
 */

export interface LogEntry {
  seq: number;
  /** ISO 8601, UTC. */
  at: string;
  /** What kind of item: post, comment, user, remote-reply. Never whose, for a private item. */
  targetKind: string;
  action: string;
  /** The rule's title as it was, or "Spam" / "Other". */
  rule: string;
  prevHash: string;
  hash: string;
}

export interface LogHead {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  seq: number;
  hash: string;
  /** Ed25519 over `headMessage(head)`, base64url. */
  signature: string;
}

/** What an export signs when it is made: as of `at`, the log ends at entry `seq` (0 and GENESIS_HASH when empty). */
export interface LatestHead {
  /** ISO 8601, UTC: when the export was signed. */
  at: string;
  seq: number;
  hash: string;
  signature: string;
}

export const GENESIS_HASH = "0".repeat(64);

/** The bytes an entry's hash covers: every field but the hash, in a fixed order, one per line. */
export const entryMessage = (entry: Omit<LogEntry, "hash">) =>
  [entry.seq, entry.at, entry.targetKind, entry.action, entry.rule, entry.prevHash]
    .map((field) => String(field).replace(/[\r\n]/g, " "))
    .join("\n");

/** What a day's head signature covers. */
export const headMessage = (head: Omit<LogHead, "signature">) =>
  `penchain-moderation-log\n${head.day}\n${head.seq}\n${head.hash}`;

/** What the export's head signature covers: another prefix than a day's, so neither passes for the other. */
export const latestMessage = (head: Omit<LatestHead, "signature">) =>
  `penchain-moderation-log-latest\n${head.at}\n${head.seq}\n${head.hash}`;

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));

async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const hashEntry = (entry: Omit<LogEntry, "hash">) => sha256Hex(entryMessage(entry));

/**
 * Checks a log read oldest first: each entry's hash and link to the one before, each head's signature against
 * `publicKey` (an Ed25519 JWK) and the entry it names, and that the export's signed head names its newest entry
 * (so no entry is left uncovered by a signature). Answers the problems found, none when it holds.
 */
export async function verifyLog(
  entries: LogEntry[],
  heads: LogHead[],
  publicKey: JsonWebKey,
  latest: LatestHead | undefined,
): Promise<string[]> {
  const problems: string[] = [];
  let previous = GENESIS_HASH;
  const bySeq = new Map<number, LogEntry>();
  for (const [index, entry] of entries.entries()) {
    if (entry.seq !== index + 1) problems.push(`entry ${index + 1} is numbered ${entry.seq}: one is missing`);
    if (entry.prevHash !== previous) problems.push(`entry ${entry.seq} does not follow the entry before it`);
    if ((await hashEntry(entry)) !== entry.hash) problems.push(`entry ${entry.seq} was changed after it was written`);
    previous = entry.hash;
    bySeq.set(entry.seq, entry);
  }
  const key = await crypto.subtle.importKey("jwk", publicKey, { name: "Ed25519" }, false, ["verify"]);
  const signedBy = (signature: string, message: string) =>
    crypto.subtle.verify("Ed25519", key, fromBase64Url(signature), new TextEncoder().encode(message));
  for (const head of heads) {
    const signed = await signedBy(head.signature, headMessage(head));
    if (!signed) problems.push(`the head of ${head.day} is not signed by the site's key`);
    const entry = bySeq.get(head.seq);
    if (!entry) problems.push(`the head of ${head.day} names entry ${head.seq}, which is not in the log`);
    else if (entry.hash !== head.hash) problems.push(`entry ${head.seq} is not the one the head of ${head.day} signed`);
  }
  const newest = { seq: entries.at(-1)?.seq ?? 0, hash: entries.at(-1)?.hash ?? GENESIS_HASH };
  if (!latest) problems.push("no signed head covers the newest entries: export the log again");
  else if (!(await signedBy(latest.signature, latestMessage(latest))))
    problems.push(`the export's head (${latest.at}) is not signed by the site's key`);
  else if (latest.seq !== newest.seq || latest.hash !== newest.hash)
    problems.push(
      `the export's signed head names entry ${latest.seq}, not its newest (${newest.seq}): entries were cut or added`,
    );
  return problems;
}
