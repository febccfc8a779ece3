import { Box } from "@chakra-ui/react";
import {
  type ClipboardEvent,
  type KeyboardEvent,
  lazy,
  Suspense,
  startTransition,
  useEffect,
  useRef,
  useState,
} from "react";
import { plainText } from "#shared/text.ts";
import { EditorFrame, IDLE_TOOLBAR } from "./editor-frame.tsx";

const loadEditor = () => import("./rich-text-editor.tsx");
const RichTextEditor = lazy(() => loadEditor().then((module) => ({ default: module.RichTextEditor })));

interface EditorFieldProps {
  id: string;
  value: string;
  onChange: (html: string) => void;
  onBlur: () => void;
  invalid?: boolean;
  /** Load the editor now: the writer has started on the form (or came to edit). */
  wanted: boolean;
}

/** Text typed before the editor was there, as the editor's HTML: a paragraph a line. */
function paragraphs(text: string) {
  return text
    .split("\n")
    .map((line) => {
      const paragraph = document.createElement("p");
      paragraph.textContent = line;
      return paragraph.outerHTML;
    })
    .join("");
}

/**
 * The description's rich-text editor. The editor (tiptap and ProseMirror, the largest part of the writing screens)
 * is fetched once the writer starts on the form or reaches for this field; until it is there, the same frame shows
 * the text so far, so the page neither waits for it nor moves when it arrives. What the writer types while it comes
 * is kept (in the form, as paragraphs after any text there was) and the editor opens on it, with the cursor after it.
 */
export function EditorField({ wanted, ...props }: EditorFieldProps) {
  const [reached, setReached] = useState(false);
  // The editor takes the frame's place only once it is here: it is mounted in a transition, so React keeps the
  // frame (and the focus a press gave it) rather than swapping in the fallback while the editor's code is on its way.
  const [mounted, setMounted] = useState(wanted);
  useEffect(() => {
    if (!wanted && !reached) return;
    void loadEditor();
    startTransition(() => setMounted(true));
  }, [wanted, reached]);
  // A writer who pressed the field on the server's page before the app was there has it focused (it is focusable
  // as it comes): that counts as reaching for it, so the editor comes focused for them to type.
  useEffect(() => {
    if (document.activeElement?.id === props.id) setReached(true);
  }, [props.id]);
  // The description as it was at the first key typed here, and the keys since.
  const before = useRef<string | null>(null);
  const [typed, setTyped] = useState("");
  const keep = (next: string) => {
    before.current ??= props.value;
    setTyped(next);
    props.onChange(`${before.current}${next ? paragraphs(next) : ""}`);
  };
  const type = (event: KeyboardEvent) => {
    const modified = event.ctrlKey || event.metaKey || event.altKey;
    let next = typed;
    if (event.key === "Enter") next += "\n";
    else if (event.key === "Backspace") next = next.slice(0, -1);
    else if (event.key.length === 1 && !modified) next += event.key;
    else return;
    event.preventDefault();
    keep(next);
  };
  const paste = (event: ClipboardEvent) => {
    event.preventDefault();
    keep(typed + event.clipboardData.getData("text/plain").replace(/\r\n?/g, "\n"));
  };
  // What the frame shows: the text so far (with the keys as typed, spaces and lines kept).
  const shown = typed ? plainText(before.current ?? "") + (before.current ? "\n" : "") + typed : plainText(props.value);
  const waiting = (
    <EditorFrame state={IDLE_TOOLBAR} invalid={props.invalid}>
      <Box
        id={props.id}
        role="textbox"
        aria-multiline="true"
        aria-label="Description"
        aria-busy={reached}
        tabIndex={0}
        minH="40"
        whiteSpace="pre-wrap"
        color={shown ? undefined : "fg.muted"}
        onFocus={() => setReached(true)}
        onPointerDown={() => setReached(true)}
        onKeyDown={type}
        onPaste={paste}
      >
        {shown || (reached ? "Loading the editor…" : "Write your post…")}
      </Box>
    </EditorFrame>
  );
  return (
    <Suspense fallback={waiting}>{mounted ? <RichTextEditor {...props} autoFocus={reached} /> : waiting}</Suspense>
  );
}
