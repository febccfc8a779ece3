/**
 * A visitor sent to log in (by a screen for signed-in users, or a button on a reader page) comes back where they
 * were going: the address travels in the history entry's state, with a line the login page says. The spec's own
 * ways to /login (the bar, Register's success) carry no address, and go to the profile as it says.
 */
export interface LoginReturn {
  /** An address on this site to come back to after logging in. */
  from?: string;
  /** What the login page tells the visitor (why they are there, or that their account was made). */
  note?: string;
}

/** `navigate` arguments for /login that come back to `from` afterwards. */
export const loginThenBack = (from: string, note?: string) =>
  ["/login", { state: { from, note } satisfies LoginReturn }] as const;

/** What a history entry's state says of the return; anything but a path on this site (`/x`, not `//host`) is dropped. */
export function loginReturnOf(state: unknown): { from: string | null; note: string | null } {
  const value = (typeof state === "object" && state !== null ? state : {}) as Record<string, unknown>;
  const from = typeof value.from === "string" && /^\/(?![/\\])/.test(value.from) ? value.from : null;
  return { from, note: typeof value.note === "string" ? value.note : null };
}
