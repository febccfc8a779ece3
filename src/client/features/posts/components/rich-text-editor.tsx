import { Box, Button, Group, HStack, NativeSelect, Separator } from "@chakra-ui/react";
import Image from "@tiptap/extension-image";
import Link from "@tiptap/extension-link";
import { FontFamily, FontSize, TextStyle } from "@tiptap/extension-text-style";
import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { EDITOR_FONTS, EDITOR_LINK_SCHEMES, EDITOR_SIZES } from "../../../../shared/editor-format.ts";
import { ImageIcon, LinkIcon } from "../../../components/icons.tsx";
import { Indent } from "./indent.ts";

const ALLOWED_LINK = new RegExp(`^(${EDITOR_LINK_SCHEMES.join("|")}):`, "i");

interface RichTextEditorProps {
  id: string;
  value: string;
  onChange: (html: string) => void;
  onBlur: () => void;
  invalid?: boolean;
}

/** The Create/Edit Blog editor; its output is exactly what the server keeps (src/shared/editor-format.ts). */
export function RichTextEditor({ id, value, onChange, onBlur, invalid }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [1, 2] },
        link: false,
        undoRedo: { depth: 100, newGroupDelay: 1000 },
        code: false,
        codeBlock: false,
        horizontalRule: false,
      }),
      Link.configure({ openOnClick: false, autolink: true, isAllowedUri: (url) => ALLOWED_LINK.test(url) }),
      Image,
      TextStyle,
      FontFamily,
      FontSize,
      Indent,
    ],
    content: value,
    editorProps: {
      attributes: { id, role: "textbox", "aria-multiline": "true", "aria-label": "Description", class: "rich-text" },
    },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? "" : current.getHTML()),
    onBlur,
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      heading: current.isActive("heading", { level: 1 }) ? "1" : current.isActive("heading", { level: 2 }) ? "2" : "",
      font: (current.getAttributes("textStyle").fontFamily as string | undefined) ?? "",
      size: (current.getAttributes("textStyle").fontSize as string | undefined) ?? "",
      marks: Object.fromEntries(
        ["bold", "italic", "underline", "strike", "blockquote", "bulletList", "orderedList", "link"].map((name) => [
          name,
          current.isActive(name),
        ]),
      ),
    }),
  });
  if (!editor || !state) return null;
  const chain = () => editor.chain().focus();

  const toggle = (label: string, name: string, run: () => void, text: React.ReactNode) => (
    <Button
      size="xs"
      variant={state.marks[name] ? "subtle" : "ghost"}
      aria-label={label}
      aria-pressed={Boolean(state.marks[name])}
      onClick={run}
      title={label}
    >
      {text}
    </Button>
  );
  const setLink = () => {
    const url = window.prompt(
      "Link address (http, https, mailto or tel)",
      (editor.getAttributes("link").href as string) ?? "https://",
    );
    if (url === null) return;
    if (url === "") chain().extendMarkRange("link").unsetLink().run();
    else if (ALLOWED_LINK.test(url)) chain().extendMarkRange("link").setLink({ href: url }).run();
    else window.alert("Links may only use http, https, mailto or tel.");
  };
  const addImage = () => {
    const url = window.prompt("Image address (https)", "https://");
    if (url?.startsWith("https://")) chain().setImage({ src: url }).run();
  };

  return (
    <Box borderWidth="1px" borderRadius="md" borderColor={invalid ? "border.error" : "border"}>
      <HStack role="toolbar" aria-label="Formatting" wrap="wrap" gap="1" p="2" borderBottomWidth="1px">
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field
            aria-label="Header"
            value={state.heading}
            onChange={(event) => {
              const level = Number(event.target.value) as 1 | 2;
              if (level) chain().setHeading({ level }).run();
              else chain().setParagraph().run();
            }}
          >
            <option value="">Normal</option>
            <option value="1">Heading 1</option>
            <option value="2">Heading 2</option>
          </NativeSelect.Field>
        </NativeSelect.Root>
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field
            aria-label="Font"
            value={state.font}
            onChange={(event) =>
              event.target.value ? chain().setFontFamily(event.target.value).run() : chain().unsetFontFamily().run()
            }
          >
            <option value="">Sans Serif</option>
            {EDITOR_FONTS.map((font) => (
              <option key={font} value={font}>
                {font[0]?.toUpperCase() + font.slice(1)}
              </option>
            ))}
          </NativeSelect.Field>
        </NativeSelect.Root>
        <NativeSelect.Root size="xs" width="auto">
          <NativeSelect.Field
            aria-label="Size"
            value={state.size}
            onChange={(event) =>
              event.target.value ? chain().setFontSize(event.target.value).run() : chain().unsetFontSize().run()
            }
          >
            <option value="">Normal</option>
            {Object.entries(EDITOR_SIZES).map(([name, size]) => (
              <option key={name} value={size}>
                {name[0]?.toUpperCase() + name.slice(1)}
              </option>
            ))}
          </NativeSelect.Field>
        </NativeSelect.Root>
        <Separator orientation="vertical" height="5" />
        <Group attached>
          {toggle("Bold", "bold", () => chain().toggleBold().run(), "B")}
          {toggle("Italic", "italic", () => chain().toggleItalic().run(), "I")}
          {toggle("Underline", "underline", () => chain().toggleUnderline().run(), "U")}
          {toggle("Strike", "strike", () => chain().toggleStrike().run(), "S")}
        </Group>
        {toggle("Blockquote", "blockquote", () => chain().toggleBlockquote().run(), "❝")}
        {toggle("Bulleted list", "bulletList", () => chain().toggleBulletList().run(), "•")}
        {toggle("Numbered list", "orderedList", () => chain().toggleOrderedList().run(), "1.")}
        <Button size="xs" variant="ghost" aria-label="Decrease indent" onClick={() => chain().outdent().run()}>
          ⇤
        </Button>
        <Button size="xs" variant="ghost" aria-label="Increase indent" onClick={() => chain().indent().run()}>
          ⇥
        </Button>
        {toggle("Link", "link", setLink, <LinkIcon />)}
        <Button size="xs" variant="ghost" aria-label="Image" onClick={addImage}>
          <ImageIcon />
        </Button>
        <Button
          size="xs"
          variant="ghost"
          aria-label="Clear formatting"
          onClick={() => chain().unsetAllMarks().clearNodes().run()}
        >
          ⌫
        </Button>
      </HStack>
      <Box
        p="3"
        minH="48"
        css={{
          "& .ProseMirror": { outline: "none", minHeight: "40" },
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
        <EditorContent editor={editor} />
      </Box>
    </Box>
  );
}
