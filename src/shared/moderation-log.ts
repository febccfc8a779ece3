/**
 * The public moderation log's chain, the same on the server and in `npm run verify-log`: each entry carries the
 * SHA-256 of the one before, and each day's last entry (its head) is signed with the site's Ed25519 key. Editing or
 * deleting any entry changes every hash after it, so anyone holding a signed head can check the log offline.
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

export const GENESIS_HASH = "0".repeat(64);

/** The bytes an entry's hash covers: every field but the hash, in a fixed order, one per line. */
export const entryMessage = (entry: Omit<LogEntry, "hash">) =>
  [entry.seq, entry.at, entry.targetKind, entry.action, entry.rule, entry.prevHash]
    .map((field) => String(field).replace(/[\r\n]/g, " "))
    .join("\n");

/** What a day's head signature covers. */
export const headMessage = (head: Omit<LogHead, "signature">) =>
  `penchain-moderation-log\n${head.day}\n${head.seq}\n${head.hash}`;

async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export const hashEntry = (entry: Omit<LogEntry, "hash">) => sha256Hex(entryMessage(entry));

/**
 * Checks a log read oldest first: each entry's hash and link to the one before, and each head's signature against
 * `publicKey` (an Ed25519 JWK) and the entry it names. Answers the problems found, none when it holds.
 */
export async function verifyLog(entries: LogEntry[], heads: LogHead[], publicKey: JsonWebKey): Promise<string[]> {
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
  for (const head of heads) {
    const signature = Uint8Array.from(atob(head.signature.replace(/-/g, "+").replace(/_/g, "/")), (char) =>
      char.charCodeAt(0),
    );
    const signed = await crypto.subtle.verify("Ed25519", key, signature, new TextEncoder().encode(headMessage(head)));
    if (!signed) problems.push(`the head of ${head.day} is not signed by the site's key`);
    const entry = bySeq.get(head.seq);
    if (!entry) problems.push(`the head of ${head.day} names entry ${head.seq}, which is not in the log`);
    else if (entry.hash !== head.hash) problems.push(`entry ${head.seq} is not the one the head of ${head.day} signed`);
  }
  return problems;
}
