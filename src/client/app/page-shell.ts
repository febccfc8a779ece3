/**
 * How a page the server rendered reaches the browser: the root element, marked to be hydrated, and the query cache
 * it was rendered from. entry-server.tsx writes them; main.tsx and start.tsx read them.
 */
export const ROOT_ID = "root";
export const HYDRATE_ATTRIBUTE = "data-hydrate";
export const PAGE_STATE_ID = "page-state";
/** The page shows what only a signed-in user may use: the app starts at once, to send a visitor to log in. */
export const START_NOW_ATTRIBUTE = "data-start-now";
/** When the server rendered the page (ms since 1970): hydration renders relative times ("3 minutes ago") from it. */
export const RENDERED_AT_ATTRIBUTE = "data-rendered-at";

/** The root element with `markup` inside, and the page's state as JSON that no text in it can end. */
export function pageShell(
  markup: string,
  state: unknown,
  marks: { hydrate: boolean; startNow: boolean; renderedAt: number },
) {
  const json = JSON.stringify(state).replace(/</g, "\\u003c");
  const attributes = `${marks.hydrate ? ` ${HYDRATE_ATTRIBUTE}` : ""}${marks.startNow ? ` ${START_NOW_ATTRIBUTE}` : ""} ${RENDERED_AT_ATTRIBUTE}="${Math.trunc(marks.renderedAt)}"`;
  return `<div id="${ROOT_ID}"${attributes}>${markup}</div>\n    <script type="application/json" id="${PAGE_STATE_ID}">${json}</script>`;
}
