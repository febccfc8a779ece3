import { Box, Button, Group, HStack, NativeSelect, Separator } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { EDITOR_FONTS, EDITOR_SIZES } from "#shared/editor-format.ts";
import { ImageIcon, LinkIcon } from "../../../components/icons.tsx";

/** What the toolbar shows as chosen where the cursor is. */
export interface ToolbarState {
  heading: string;
  font: string;
  size: string;
  marks: Record<string, boolean>;
}

export const IDLE_TOOLBAR: ToolbarState = { heading: "", font: "", size: "", marks: {} };

export type ToolbarCommand =
  | { name: "heading" | "font" | "size"; value: string }
  | {
      name:
        | "bold"
        | "italic"
        | "underline"
        | "strike"
        | "blockquote"
        | "bulletList"
        | "orderedList"
        | "outdent"
        | "indent"
        | "link"
        | "image"
        | "clear";
    };

const capitalised = (word: string) => (word[0]?.toUpperCase() ?? "") + word.slice(1);

/**
 * The editor's frame: the spec's toolbar (docs/specification.md §Create Blog: headers, fonts, sizes, bold, italic,
 * underline, strike, blockquote, lists, indent, link, image, clean) above the writing area. It draws the same whether
 * or not the editor itself has loaded (`onCommand` absent: the controls wait), so the page does not move when it has.
 */
export function EditorFrame({
  state,
  onCommand,
  invalid,
  children,
}: {
  state: ToolbarState;
  onCommand?: (command: ToolbarCommand) => void;
  invalid?: boolean;
  children: ReactNode;
}) {
  const disabled = !onCommand;
  const run = (command: ToolbarCommand) => () => onCommand?.(command);
  const toggle = (
    label: string,
    name: Exclude<ToolbarCommand["name"], "heading" | "font" | "size">,
    text: ReactNode,
  ) => (
    <Button
      size="xs"
      variant={state.marks[name] ? "subtle" : "ghost"}
      aria-label={label}
      aria-pressed={Boolean(state.marks[name])}
      onClick={run({ name })}
      title={label}
      disabled={disabled}
    >
      {text}
    </Button>
  );
  const action = (label: string, name: "outdent" | "indent" | "image" | "clear", content: ReactNode) => (
    <Button size="xs" variant="ghost" aria-label={label} onClick={run({ name })} disabled={disabled}>
      {content}
    </Button>
  );
  const select = (label: string, name: "heading" | "font" | "size", value: string, options: [string, string][]) => (
    <NativeSelect.Root size="xs" width="auto" disabled={disabled}>
      <NativeSelect.Field
        aria-label={label}
        value={value}
        onChange={(event) => onCommand?.({ name, value: event.target.value })}
      >
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </NativeSelect.Field>
    </NativeSelect.Root>
  );

  return (
    <Box borderWidth="1px" borderRadius="md" borderColor={invalid ? "border.error" : "border"}>
      <HStack role="toolbar" aria-label="Formatting" wrap="wrap" gap="1" p="2" borderBottomWidth="1px">
        {select("Header", "heading", state.heading, [
          ["", "Normal"],
          ["1", "Heading 1"],
          ["2", "Heading 2"],
        ])}
        {select("Font", "font", state.font, [
          ["", "Sans Serif"],
          ...EDITOR_FONTS.map((font) => [font, capitalised(font)] as [string, string]),
        ])}
        {select("Size", "size", state.size, [
          ["", "Normal"],
          ...Object.entries(EDITOR_SIZES).map(([name, size]) => [size, capitalised(name)] as [string, string]),
        ])}
        <Separator orientation="vertical" height="5" />
        <Group attached>
          {toggle("Bold", "bold", "B")}
          {toggle("Italic", "italic", "I")}
          {toggle("Underline", "underline", "U")}
          {toggle("Strike", "strike", "S")}
        </Group>
        {toggle("Blockquote", "blockquote", "❝")}
        {toggle("Bulleted list", "bulletList", "•")}
        {toggle("Numbered list", "orderedList", "1.")}
        {action("Decrease indent", "outdent", "⇤")}
        {action("Increase indent", "indent", "⇥")}
        {toggle("Link", "link", <LinkIcon />)}
        {action("Image", "image", <ImageIcon />)}
        {action("Clear formatting", "clear", "⌫")}
      </HStack>
      <Box
        p="3"
        minH="48"
        borderBottomRadius="md"
        // The text's own outline is off (ProseMirror's), so the area around it shows where the keyboard is.
        _focusWithin={{ outline: "2px solid", outlineColor: invalid ? "border.error" : "colorPalette.focusRing" }}
        colorPalette="teal"
        css={{
          // What ProseMirror needs of the editable element, here as well as in the stylesheet tiptap adds: when
          // useEditor replaces an editor instance, the old one's teardown can take that shared stylesheet away from
          // the new one (seen in 1 load in 10), and typed spaces and lines would collapse.
          "& .ProseMirror": {
            outline: "none",
            minHeight: "40",
            position: "relative",
            whiteSpace: "break-spaces",
            overflowWrap: "break-word",
            fontVariantLigatures: "none",
          },
          "& h1": { fontSize: "2xl", fontWeight: "bold" },
          "& h2": { fontSize: "xl", fontWeight: "semibold" },
          "& blockquote": { borderLeftWidth: "4px", borderColor: "teal.500", ps: "3", color: "fg.muted" },
          "& ul": { ps: "6", listStyleType: "disc" },
          "& ol": { ps: "6", listStyleType: "decimal" },
          "& a": { color: "teal.fg", textDecoration: "underline" },
          ...Object.fromEntries(
            [1, 2, 3, 4, 5, 6, 7, 8].map((level) => [`& .indent-${level}`, { ps: `${level * 2}em` }]),
          ),
        }}
      >
        {children}
      </Box>
    </Box>
  );
}
