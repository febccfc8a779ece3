import Image from "@tiptap/extension-image";
import Link from "@tiptap/extension-link";
import { FontFamily, FontSize, TextStyle } from "@tiptap/extension-text-style";
import { type Editor, EditorContent, useEditor, useEditorState } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useLayoutEffect, useRef } from "react";
import { EDITOR_LINK_SCHEMES } from "#shared/editor-format.ts";
import { EditorFrame, type ToolbarCommand } from "./editor-frame.tsx";
import { Indent } from "./indent.ts";

const ALLOWED_LINK = new RegExp(`^(${EDITOR_LINK_SCHEMES.join("|")}):`, "i");

interface RichTextEditorProps {
  id: string;
  value: string;
  onChange: (html: string) => void;
  onBlur: () => void;
  invalid?: boolean;
  /** Focus the writing area once it is there (the writer had already reached for it). */
  autoFocus?: boolean;
}

/** The editor's text as the form keeps it: an empty editor is an empty description. */
const htmlOf = (editor: Editor) => (editor.isEmpty ? "" : editor.getHTML());

/** The Create/Edit Blog editor; its output is exactly what the server keeps (src/shared/editor-format.ts). */
export function RichTextEditor({ id, value, onChange, onBlur, invalid, autoFocus }: RichTextEditorProps) {
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
    onUpdate: ({ editor: current }) => onChange(htmlOf(current)),
    onBlur,
  });
  // The text the editor was made with may be behind: the writer can type into EditorField's frame until this is on
  // the page. Once it is, it takes the field's latest text and, if asked, the focus, after that text (here rather than
  // through tiptap's `autofocus`, which left it unfocused in one run of four when keys came meanwhile). In the same
  // commit that takes the frame away: a key between the two went nowhere (an effect after paint lost one letter).
  const opening = useRef({ value, autoFocus });
  opening.current = { value, autoFocus };
  useLayoutEffect(() => {
    // useEditor may hand over an instance it has already replaced (destroyed) before the one it keeps.
    if (!editor || editor.isDestroyed) return;
    const { value: latest, autoFocus: focus } = opening.current;
    if (latest !== htmlOf(editor)) editor.commands.setContent(latest, { emitUpdate: false });
    if (focus) {
      // tiptap puts the cursor at the end now but focuses the page's element only at the next frame: a key typed
      // before it went nowhere. ProseMirror's own focus is at once.
      editor.commands.focus("end");
      editor.view.focus();
    }
  }, [editor]);
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
  const execute = (command: ToolbarCommand) => {
    switch (command.name) {
      case "heading": {
        const level = Number(command.value) as 0 | 1 | 2;
        if (level) chain().setHeading({ level }).run();
        else chain().setParagraph().run();
        return;
      }
      case "font":
        if (command.value) chain().setFontFamily(command.value).run();
        else chain().unsetFontFamily().run();
        return;
      case "size":
        if (command.value) chain().setFontSize(command.value).run();
        else chain().unsetFontSize().run();
        return;
      case "bold":
        return void chain().toggleBold().run();
      case "italic":
        return void chain().toggleItalic().run();
      case "underline":
        return void chain().toggleUnderline().run();
      case "strike":
        return void chain().toggleStrike().run();
      case "blockquote":
        return void chain().toggleBlockquote().run();
      case "bulletList":
        return void chain().toggleBulletList().run();
      case "orderedList":
        return void chain().toggleOrderedList().run();
      case "outdent":
        return void chain().outdent().run();
      case "indent":
        return void chain().indent().run();
      case "link":
        return setLink();
      case "image":
        return addImage();
      case "clear":
        return void chain().unsetAllMarks().clearNodes().run();
    }
  };

  return (
    <EditorFrame state={state} onCommand={execute} invalid={invalid}>
      <EditorContent editor={editor} />
    </EditorFrame>
  );
}
