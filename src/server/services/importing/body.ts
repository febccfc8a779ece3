import { Worker } from "node:worker_threads";
import { imageFailure } from "./images.ts";
import type { ImportedPost } from "./items.ts";

export type BringImage = (ref: string, baseDir?: string) => Promise<string | null>;

/** A body the sanitiser's thread has not cleaned in this long is given up (the thread is started again). */
const CLEAN_TIMEOUT_MS = 30_000;
/** The thread stops when no import has used it for this long. */
const IDLE_MS = 60_000;

type Answer = { id: number; html?: string; hasContent?: boolean; error?: string };
interface Waiting {
  resolve(answer: { html: string; hasContent: boolean }): void;
  reject(error: Error): void;
}

let thread: Worker | null = null;
let idle: NodeJS.Timeout | undefined;
let lastId = 0;
const waiting = new Map<number, Waiting>();

function stopThread(reason: string) {
  const stopping = thread;
  thread = null;
  for (const job of waiting.values()) job.reject(new Error(reason));
  waiting.clear();
  void stopping?.terminate();
}

function sanitiser() {
  if (thread) return thread;
  const started = new Worker(new URL("./clean-worker.ts", import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: 256 },
  });
  started.unref();
  started.on("message", (answer: Answer) => {
    const job = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error !== undefined) job?.reject(new Error(answer.error));
    else job?.resolve({ html: answer.html ?? "", hasContent: answer.hasContent ?? false });
  });
  started.on("error", (error) => thread === started && stopThread(`its body could not be cleaned (${error.message})`));
  started.on("exit", () => thread === started && stopThread("its body could not be cleaned"));
  thread = started;
  return started;
}

/**
 * An imported body through the same sanitiser as a written post, on a thread of its own: the server's event loop
 * never waits on it (sanitize-html took half a second for 100,000 characters of nested tags).
 */
export const sanitizeImported = (html: string) => ask({ html });

/** Markdown (a Markdown file's body, a Ghost card) as HTML, read on the same thread. */
export const markdownHtml = async (markdown: string) => (await ask({ markdown })).html;

function ask(message: { html: string } | { markdown: string }): Promise<{ html: string; hasContent: boolean }> {
  clearTimeout(idle);
  const id = ++lastId;
  const worker = sanitiser();
  return new Promise<{ html: string; hasContent: boolean }>((resolve, reject) => {
    const timer = setTimeout(() => stopThread("cleaning its body took too long"), CLEAN_TIMEOUT_MS);
    const done = () => {
      clearTimeout(timer);
      if (waiting.size === 0) idle = setTimeout(() => waiting.size === 0 && stopThread("idle"), IDLE_MS).unref();
    };
    waiting.set(id, {
      resolve: (answer) => {
        done();
        resolve(answer);
      },
      reject: (error) => {
        done();
        reject(error);
      },
    });
    worker.postMessage({ id, ...message });
  });
}

/** WordPress keeps paragraphs as blank lines (its `wpautop` adds the tags when it shows them). */
export function paragraphs(html: string) {
  if (/<(p|div|h[1-6]|ul|ol|blockquote|figure)\b/i.test(html)) return html;
  return html
    .split(/\n\s*\n/)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk) => `<p>${chunk.replace(/\n/g, "<br>")}</p>`)
    .join("");
}

const IMG = /<img\b/gi;
const SRC = /\bsrc\s*=\s*("([^"]*)"|'([^']*)')/i;
const attribute = (value: string) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");

/** Each `<img>` tag's `src`, in one pass (a tag runs to its `>`; one without is not a tag). */
function imageTags(html: string) {
  const tags: { start: number; end: number; src: string; at: number; length: number }[] = [];
  IMG.lastIndex = 0;
  for (let match = IMG.exec(html); match; match = IMG.exec(html)) {
    const end = html.indexOf(">", match.index);
    if (end < 0) break;
    const src = SRC.exec(html.slice(match.index, end));
    if (src) {
      const value = src[2] ?? src[3] ?? "";
      tags.push({ start: match.index, end, src: value, at: match.index + src.index, length: src[0].length });
    }
    IMG.lastIndex = end + 1;
  }
  return tags;
}

/** The body's images brought in (or left out), then the same sanitiser as a written post, off the event loop. */
export async function cleanBody(item: ImportedPost, bring: BringImage, warnings: string[]) {
  const tags = imageTags(item.html);
  const stored = new Map<string, string | null>();
  for (const { src } of tags) {
    if (stored.has(src)) continue;
    stored.set(src, null);
    try {
      stored.set(src, await bring(attribute(src), item.baseDir));
    } catch (error) {
      warnings.push(imageFailure(src, error));
    }
  }
  let html = "";
  let at = 0;
  for (const tag of tags) {
    const image = stored.get(tag.src);
    if (!image) continue;
    html += `${item.html.slice(at, tag.at)}src="${image}"`;
    at = tag.at + tag.length;
  }
  html += item.html.slice(at);
  return sanitizeImported(paragraphs(html));
}
