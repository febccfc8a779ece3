/**
 * How a page the server rendered reaches the browser: the root element, marked to be hydrated, and the query cache
 * it was rendered from. entry-server.tsx writes them; main.tsx and start.tsx read them.
 */
export const ROOT_ID = "root";
export const HYDRATE_ATTRIBUTE = "data-hydrate";
export const PAGE_STATE_ID = "page-state";

/** The root element with `markup` inside, and the page's state as JSON that no text in it can end. */
export function pageShell(markup: string, hydrate: boolean, state: unknown) {
  const json = JSON.stringify(state).replace(/</g, "\\u003c");
  return `<div id="${ROOT_ID}"${hydrate ? ` ${HYDRATE_ATTRIBUTE}` : ""}>${markup}</div>\n    <script type="application/json" id="${PAGE_STATE_ID}">${json}</script>`;
}
