import { Extension } from "@tiptap/react";
import { EDITOR_INDENT_LEVELS, indentClass } from "#shared/editor-format.ts";

const MAX = EDITOR_INDENT_LEVELS.length;
const TYPES = ["paragraph", "heading", "listItem", "blockquote"];

declare module "@tiptap/react" {
  interface Commands<ReturnType> {
    indent: { indent: () => ReturnType; outdent: () => ReturnType };
  }
}

/** Block indentation 1–8, written as the `indent-N` class the server's sanitiser keeps. */
export const Indent = Extension.create({
  name: "indent",
  addGlobalAttributes() {
    return [
      {
        types: TYPES,
        attributes: {
          indent: {
            default: 0,
            parseHTML: (element) => Number(/indent-(\d)/.exec(element.className)?.[1] ?? 0),
            renderHTML: (attributes) => (attributes.indent ? { class: indentClass(attributes.indent) } : {}),
          },
        },
      },
    ];
  },
  addCommands() {
    const shift =
      (delta: number) =>
      () =>
      ({
        tr,
        state,
        dispatch,
      }: {
        tr: import("@tiptap/pm/state").Transaction;
        state: import("@tiptap/pm/state").EditorState;
        dispatch?: unknown;
      }) => {
        let changed = false;
        state.doc.nodesBetween(state.selection.from, state.selection.to, (node, pos) => {
          if (!TYPES.includes(node.type.name)) return;
          const indent = Math.min(MAX, Math.max(0, (node.attrs.indent ?? 0) + delta));
          if (indent !== node.attrs.indent) {
            tr.setNodeMarkup(pos, undefined, { ...node.attrs, indent });
            changed = true;
          }
        });
        return changed && Boolean(dispatch);
      };
    return { indent: shift(1), outdent: shift(-1) };
  },
});
