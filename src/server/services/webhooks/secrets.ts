import crypto from "node:crypto";

/**
 * An endpoint's signing secret (Standard Webhooks: `whsec_` and a base64 key). The server must sign with it, so it
 * cannot be hashed: it is sealed (AES-256-GCM) with a key derived from JWT_SECRET, so a copy of the database alone
 * (a backup, a dump) does not hand out the secrets.
 */
export const newSecret = () => `whsec_${crypto.randomBytes(32).toString("base64")}`;

/** The sealing key of each server secret, derived once: every delivery opens its endpoint's secret with it. */
const keys = new Map<string, Buffer>();
function keyOf(serverSecret: string) {
  let key = keys.get(serverSecret);
  if (!key) {
    key = crypto.createHmac("sha256", serverSecret).update("penchain:webhook-secrets").digest();
    keys.set(serverSecret, key);
  }
  return key;
}

export function sealSecret(serverSecret: string, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyOf(serverSecret), iv);
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
}

export function openSecret(serverSecret: string, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1\./, ""), "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyOf(serverSecret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** Standard Webhooks' signature: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret's key. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}
