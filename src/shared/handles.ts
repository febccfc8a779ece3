import { slugify } from "./text.ts";

/**
 * Handles: `@handle@host` on the fediverse. Lower-case letters, digits, "-" and "_", 3–30 characters,
 * derived from the name at registration (`ada-lovelace`, then `ada-lovelace-2`) and changeable in Update profile.
 */
export const HANDLE_PATTERN = /^[a-z0-9_-]{3,30}$/;
export const HANDLE_MESSAGE = "A handle is 3–30 lower-case letters, digits, - or _";
/** The site's own actor, followable for every post. */
export const SITE_HANDLE = "blog";
/** Handles nobody may take: the site's, and names people would take for the site's. */
export const RESERVED_HANDLES = new Set([
  SITE_HANDLE,
  "admin",
  "administrator",
  "root",
  "support",
  "penchain",
  "help",
  "webmaster",
  "mod",
  "moderator",
]);
export const HANDLE_RESERVED_MESSAGE = "This handle is reserved";
export const HANDLE_TAKEN_MESSAGE = "This handle is taken";

/** Room left at the end of a derived handle for "-2", "-3", …, so a numbered handle is never cut. */
const STEM_LENGTH = 26;

/**
 * The handle a name suggests: accents dropped, lower case, any other run of characters as one "-"; "user" when
 * nothing is left (a name in another script), padded so it is never shorter than 3.
 */
export function handleStem(firstName: string, lastName: string): string {
  const stem = slugify(`${firstName}-${lastName}`, STEM_LENGTH);
  if (stem.length === 0) return "user";
  return stem.length < 3 ? `${stem}-user`.slice(0, STEM_LENGTH) : stem;
}

/** The first of `stem`, `stem-2`, `stem-3`, … that is neither taken nor reserved. */
export function firstFreeHandle(stem: string, taken: ReadonlySet<string>): string {
  const free = (handle: string) => !taken.has(handle) && !RESERVED_HANDLES.has(handle);
  if (free(stem)) return stem;
  for (let n = 2; ; n++) {
    const handle = `${stem}-${n}`;
    if (free(handle)) return handle;
  }
}
