// Text for places that show no markup: page descriptions, link previews, feeds, mail, notifications.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** The words of a post's (sanitised) HTML, for descriptions and feeds: no tags, entities read, spaces collapsed. */
export function plainText(html: string) {
  return html
    .replace(/<(br|\/p|\/h\d|\/li|\/blockquote)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_match, name: string) => ENTITIES[name] as string)
    .replace(/\s+/g, " ")
    .trim();
}

/** At most `max` characters, cut at a word. */
export function excerpt(text: string, max = 160) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2))}…`;
}

const WEI_PER_ETH = 10n ** 18n;

/** Wei (a decimal string, so nothing is lost) as ETH with every significant digit: "0.01 ETH". */
export function formatEth(wei: string): string {
  const value = BigInt(wei);
  const fraction = (value % WEI_PER_ETH).toString().padStart(18, "0").replace(/0+$/, "");
  return `${value / WEI_PER_ETH}${fraction ? `.${fraction}` : ""} ETH`;
}

/**
 * A text as an address or file name part: accents dropped, lower case, any other run of characters as one "-",
 * at most `length` long, no "-" at either end ("" when nothing is left: a text in another script).
 */
export function slugify(text: string, length: number): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, length)
    .replace(/-+$/, "");
}

/** What users typed, as one line of text: no control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
export const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
