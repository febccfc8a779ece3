import type { users } from "../../db/schema.ts";

/** The signed-in user as a route hands it to a service: the whole row, read afresh on every request. */
export type AuthUser = typeof users.$inferSelect;

export const SESSION_ENDED = "Your session has ended. Please log in again.";
export const BLOCKED = "Your account has been blocked. Please contact an admin.";
