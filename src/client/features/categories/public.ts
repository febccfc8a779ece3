/** What other features may use of categories: the list (Create Blog's dropdown, the sidebar) and its keys. */
export { useCategories } from "./api/get-categories.ts";
