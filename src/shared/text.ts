// Text of a post for places that show no markup: page descriptions, link previews, feeds.

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
