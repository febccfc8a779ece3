/** What other features may use of posts. */
export { postKeys } from "./api/keys.ts";
export { DraftList } from "./components/draft-list.tsx";
