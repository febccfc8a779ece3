/**
 * The rich-text format the editor writes and the server keeps: anything else is removed on save. One place, so the
 * toolbar and the sanitiser cannot drift apart.
 */
export const EDITOR_FONTS = ["serif", "monospace"] as const;
export const EDITOR_SIZES = { small: "0.75em", large: "1.5em", huge: "2.5em" } as const;
export const EDITOR_HEADINGS = [1, 2] as const;
export const EDITOR_INDENT_LEVELS = [1, 2, 3, 4, 5, 6, 7, 8] as const;
/** Indentation is a class on the block: `indent-1` … `indent-8`. */
export const indentClass = (level: number) => `indent-${level}`;
export const EDITOR_LINK_SCHEMES = ["http", "https", "mailto", "tel"] as const;
