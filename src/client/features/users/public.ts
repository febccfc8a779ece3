/** What other features may use of users: a user's public details and the cache keys. */
export { userQueryOptions } from "./api/get-user.ts";
export { userKeys } from "./api/keys.ts";
