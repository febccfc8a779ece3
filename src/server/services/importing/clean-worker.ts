// The import's text thread: Markdown is read and a body cleaned here, so a hostile one holds this thread, not the
// server's (marked took seconds for 100,000 characters of `*a`, and overflows its stack on nested quotes).
import { parentPort } from "node:worker_threads";
import { marked } from "marked";
import { hasContent, sanitizePostHtml } from "../core/sanitize.ts";

parentPort?.on("message", ({ id, html, markdown }: { id: number; html?: string; markdown?: string }) => {
  try {
    if (markdown !== undefined) {
      parentPort?.postMessage({ id, html: marked.parse(markdown, { async: false, gfm: true }) as string });
      return;
    }
    const clean = sanitizePostHtml(html ?? "");
    parentPort?.postMessage({ id, html: clean, hasContent: hasContent(clean) });
  } catch (error) {
    parentPort?.postMessage({ id, error: (error as Error).message });
  }
});
