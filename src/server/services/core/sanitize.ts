import sanitizeHtml from "sanitize-html";
import {
  EDITOR_FONTS,
  EDITOR_INDENT_LEVELS,
  EDITOR_LINK_SCHEMES,
  EDITOR_SIZES,
  indentClass,
} from "#shared/editor-format.ts";

const INDENTS = EDITOR_INDENT_LEVELS.map(indentClass);
const exact = (values: readonly string[]) => [
  new RegExp(`^(${values.map((value) => value.replace(/\./g, "\\.")).join("|")})$`),
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "br",
    "h1",
    "h2",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "strike",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "span",
    // An imported image's caption (WordPress's [caption]); without attributes.
    "figure",
    "figcaption",
  ],
  allowedAttributes: { a: ["href", "target", "rel"], img: ["src", "alt", "title"], span: ["style"] },
  allowedClasses: { p: INDENTS, h1: INDENTS, h2: INDENTS, li: INDENTS, blockquote: INDENTS },
  allowedStyles: { span: { "font-family": exact(EDITOR_FONTS), "font-size": exact(Object.values(EDITOR_SIZES)) } },
  allowedSchemes: [...EDITOR_LINK_SCHEMES],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: "_blank", rel: "noopener noreferrer nofollow" },
    }),
  },
  // Images come from our uploads or over https; relative paths elsewhere are dropped.
  exclusiveFilter: (frame) =>
    frame.tag === "img" && !(frame.attribs.src?.startsWith("/uploads/") || frame.attribs.src?.startsWith("https://")),
};

/** A post body reduced to what the editor can produce. */
export function sanitizePostHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

/** True when the sanitised HTML still has readable content (not just empty paragraphs). */
export function hasContent(html: string): boolean {
  return /<img\s/i.test(html) || sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim().length > 0;
}

const REMOTE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "a"],
  allowedAttributes: { a: ["href"] },
  allowedSchemes: ["https", "http"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, target: "_blank", rel: "nofollow ugc noopener noreferrer" },
    }),
  },
};

/** A reply from the fediverse: its text in paragraphs and line breaks, and its links; nothing else. */
export function sanitizeRemoteHtml(html: string): string {
  return sanitizeHtml(html, REMOTE_OPTIONS).trim();
}
