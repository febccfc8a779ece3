import { domainToASCII } from "node:url";

/** Characters that show as nothing (zero-width spaces, soft hyphens): no mailbox is told apart by them. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The key an address's "asked too often" limit counts under: one mailbox however it is spelled. `Ann+news@X.org`,
 * `ann+1+2@x.org.`, `"ann+x"@x.org` and (at Gmail) `a.nn@x.org` all reach ann@x.org, so they count together. Only
 * the key: the address is stored and mailed as it was typed. Stricter than any one mail server (case, a quoted local part), never looser.
 */
export function subscriberLimitKey(email: string): string {
  const address = email.normalize("NFKC").replace(INVISIBLE, "").trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at < 0) return address;
  // Quotes and escapes spell a mailbox, they do not make another one: `"ann"+x` and `ann+x` are the same.
  // Dots too: Gmail delivers `a.n.n` to `ann`, so dropping them everywhere is only stricter elsewhere.
  const local = address.slice(0, at).replace(/["\\.]/g, "");
  // A tag starts at the first plus; a local part that starts with one has no tag to drop.
  const plus = local.indexOf("+");
  const mailbox = plus > 0 ? local.slice(0, plus) : local;
  const domain = address.slice(at + 1).replace(/\.+$/, "");
  const ascii = domainToASCII(domain) || domain;
  return `${mailbox}@${ascii === "googlemail.com" ? "gmail.com" : ascii}`;
}
