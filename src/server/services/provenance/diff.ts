/** A line of a diff: kept, taken out, or put in. */
export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** A sanitised body's text, a paragraph (or list item, heading, quote) a line. */
export function paragraphsOf(html: string) {
  return html
    .replace(/<(br|\/p|\/h\d|\/li|\/blockquote|\/pre)\b[^>]*>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_match, name: string) => ENTITIES[name] as string)
    .split("\n")
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0);
}

/** Past this many cells the longest common subsequence is not sought: the middle shows as taken out, then put in. */
export const MAX_CELLS = 2_000_000;

/**
 * What changed from `before` to `after`, line by line (the longest common subsequence of the lines between their
 * common head and tail).
 */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ kind: "same", text }));
  const middle: DiffLine[] = [];
  if (a.length * b.length > MAX_CELLS) {
    middle.push(...a.map((text): DiffLine => ({ kind: "removed", text })));
    middle.push(...b.map((text): DiffLine => ({ kind: "added", text })));
  } else {
    // lengths[i][j]: the longest common subsequence of a[i..] and b[j..], a row at a time.
    const width = b.length + 1;
    const lengths = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        lengths[i * width + j] =
          a[i] === b[j]
            ? (lengths[(i + 1) * width + j + 1] as number) + 1
            : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        middle.push({ kind: "same", text: a[i] as string });
        i++;
        j++;
      } else if (
        i < a.length &&
        (j === b.length || (lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number))
      ) {
        middle.push({ kind: "removed", text: a[i] as string });
        i++;
      } else {
        middle.push({ kind: "added", text: b[j] as string });
        j++;
      }
    }
  }
  return [...same(before.slice(0, head)), ...middle, ...same(before.slice(before.length - tail))];
}
