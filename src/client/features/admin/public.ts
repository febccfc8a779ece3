/** What other features may use of admin: its cache keys (a recorded tip reloads the admin lists). */
export { adminKeys } from "./api/keys.ts";
