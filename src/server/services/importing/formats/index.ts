import type { ImportFormat } from "#shared/schemas/imports.ts";
import { markdownHtml } from "../body.ts";
import { bounded, type FormatOpener } from "../items.ts";
import { openGhost } from "./ghost.ts";
import { openMarkdown } from "./markdown.ts";
import { openSubstack } from "./substack.ts";
import { openWxr } from "./wxr.ts";

/** A reader whose every item is held to the editor's limits before anything else reads it. */
const heldToLimits =
  (open: FormatOpener): FormatOpener =>
  (archive) => {
    const reader = open(archive);
    return {
      scan: () => reader.scan(),
      async *items() {
        for await (const item of reader.items()) yield bounded(item);
      },
    };
  };

/** Each format's reader (loaded with the first import: a server that never imports never loads the parsers). */
export const OPENERS: Record<ImportFormat, FormatOpener> = {
  wxr: heldToLimits(openWxr),
  ghost: heldToLimits(openGhost(markdownHtml)),
  substack: heldToLimits(openSubstack),
  markdown: heldToLimits(openMarkdown(markdownHtml)),
};
