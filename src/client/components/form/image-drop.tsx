import { Box, Button, HStack, Image, Text } from "@chakra-ui/react";
import { type DragEvent, type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import { MAX_UPLOAD_BYTES } from "#shared/constants.ts";

interface ImageDropProps {
  file: File | undefined;
  onChange: (file: File | undefined) => void;
  hint: string;
  /** The types taken, each with its file names' endings. */
  accept?: Record<string, string[]>;
}

const IMAGES = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"] };

/** Why `files` cannot be the image, in words; undefined when the one file is fine. */
function refusal(files: File[], accept: Record<string, string[]>): string | undefined {
  const [file] = files;
  if (!file) return undefined;
  if (files.length > 1) return "Choose one image only.";
  const endings = Object.values(accept).flat();
  const name = file.name.toLowerCase();
  // Own keys only: a type such as "constructor" is not one of them.
  if (!Object.hasOwn(accept, file.type) && !endings.some((ending) => name.endsWith(ending))) {
    return `${file.name} is not one of the types taken (${endings.join(", ")}).`;
  }
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`;
  return undefined;
}

/**
 * One image by drag-and-drop or the file picker (a press, Enter or Space on the box opens it). A file that cannot be
 * taken is refused in words under the box, and the image chosen before stays.
 */
export function ImageDrop({ file, onChange, hint, accept = IMAGES }: ImageDropProps) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [rejection, setRejection] = useState<string>();
  const take = (files: FileList | null) => {
    const chosen = [...(files ?? [])];
    if (chosen.length === 0) return;
    const problem = refusal(chosen, accept);
    setRejection(problem);
    if (!problem) onChange(chosen[0]);
  };
  const preview = useMemo(
    () => (file && typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : undefined),
    [file],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const over = (event: DragEvent) => {
    event.preventDefault();
    setDragging(true);
  };
  const open = (event: KeyboardEvent) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    input.current?.click();
  };

  return (
    <Box>
      <Box
        role="presentation"
        tabIndex={0}
        onClick={() => input.current?.click()}
        onKeyDown={open}
        onDragEnter={over}
        onDragOver={over}
        // Leaving for the box's own text is not leaving the box.
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          take(event.dataTransfer.files);
        }}
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={dragging ? "teal.500" : "border"}
        borderRadius="md"
        p="6"
        textAlign="center"
        cursor="pointer"
        _focusVisible={{ outline: "2px solid", outlineColor: "teal.500" }}
      >
        <input
          ref={input}
          type="file"
          accept={[...Object.keys(accept), ...Object.values(accept).flat()].join(",")}
          aria-label="Image"
          style={{ display: "none" }}
          tabIndex={-1}
          // The box opened the picker; its click must not reach the box again.
          onClick={(event) => event.stopPropagation()}
          onChange={(event) => {
            take(event.target.files);
            // The same file chosen again after a Remove is a change too.
            event.target.value = "";
          }}
        />
        <Text>{dragging ? "Drop the image here" : "Drag an image here, or click to choose one"}</Text>
        <Text fontSize="sm" color="fg.muted">
          {hint}
        </Text>
      </Box>
      {rejection && (
        <Text role="alert" color="fg.error" fontSize="sm" mt="2">
          {rejection}
        </Text>
      )}
      {file && (
        <HStack mt="3" gap="3">
          {preview && <Image src={preview} alt="Chosen image" boxSize="16" objectFit="cover" borderRadius="md" />}
          <Text fontSize="sm">{file.name}</Text>
          <Button size="xs" variant="ghost" onClick={() => onChange(undefined)}>
            Remove
          </Button>
        </HStack>
      )}
    </Box>
  );
}
