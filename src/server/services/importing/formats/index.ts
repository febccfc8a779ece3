import { marked } from "marked";
import type { ImportFormat } from "#shared/schemas/imports.ts";
import type { FormatOpener } from "../items.ts";
import { openGhost } from "./ghost.ts";
import { openMarkdown } from "./markdown.ts";
import { openSubstack } from "./substack.ts";
import { openWxr } from "./wxr.ts";

const markdown = (text: string) => marked.parse(text, { async: false, gfm: true }) as string;

/** Each format's reader (loaded with the first import: a server that never imports never loads the parsers). */
export const OPENERS: Record<ImportFormat, FormatOpener> = {
  wxr: openWxr,
  ghost: openGhost(markdown),
  substack: openSubstack,
  markdown: openMarkdown(markdown),
};
