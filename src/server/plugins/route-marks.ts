/**
 * Marks on the hooks that guard or count a route, so the OpenAPI document (plugins/docs.ts) reads a route's needs
 * from the hooks it really runs rather than from a second declaration that could drift.
 */
const signedIn = new WeakSet<object>();
const rateLimited = new WeakSet<object>();

/** A hook that refuses a caller without a session (401) or whose account may not act (403). */
export function needsSignIn<T extends object>(hook: T): T {
  signedIn.add(hook);
  return hook;
}

/** A hook that counts the caller against a limit (429). */
export function countsAgainstLimit<T extends object>(hook: T): T {
  rateLimited.add(hook);
  return hook;
}

export const isSignInGuard = (hook: unknown) => typeof hook === "function" && signedIn.has(hook);
export const isRateLimit = (hook: unknown) => typeof hook === "function" && rateLimited.has(hook);
