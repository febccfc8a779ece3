import { Box, Button, HStack, Image, Text } from "@chakra-ui/react";
import { useEffect, useMemo, useState } from "react";
import { ErrorCode, type FileError, useDropzone } from "react-dropzone";
import { MAX_UPLOAD_BYTES } from "#shared/constants.ts";

interface ImageDropProps {
  file: File | undefined;
  onChange: (file: File | undefined) => void;
  hint: string;
  /** The types taken, each with its file names' endings. */
  accept?: Record<string, string[]>;
}

const IMAGES = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"] };

/**
 * The spec's drop-zone messages are react-dropzone's own: its type and count messages as they are, the size in bytes
 * as its earlier versions wrote it (no minimum size is set, so "File is smaller than N bytes" is never said).
 */
function messageOf(error: FileError) {
  return error.code === ErrorCode.FileTooLarge ? `File is larger than ${MAX_UPLOAD_BYTES} bytes` : error.message;
}

/**
 * One image by drag-and-drop, a press, Enter or Space on the box (react-dropzone). A file that cannot be taken is
 * refused in the spec's words beside the image chosen before, which stays. The file input is in the server's page
 * too, so a file chosen before the app has started is taken once it has (main.tsx).
 */
export function ImageDrop({ file, onChange, hint, accept = IMAGES }: ImageDropProps) {
  const [rejection, setRejection] = useState<string>();
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept,
    maxFiles: 1,
    multiple: false,
    maxSize: MAX_UPLOAD_BYTES,
    getErrorMessage: messageOf,
    onDrop: (accepted, rejected) => {
      const [problem] = rejected[0]?.errors ?? [];
      setRejection(problem?.message);
      if (accepted[0] && !problem) onChange(accepted[0]);
    },
  });
  const preview = useMemo(
    () => (file && typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : undefined),
    [file],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  return (
    <Box>
      <Box
        {...getRootProps()}
        borderWidth="2px"
        borderStyle="dashed"
        borderColor={isDragActive ? "teal.500" : "border"}
        borderRadius="md"
        p="6"
        textAlign="center"
        cursor="pointer"
        _focusVisible={{ outline: "2px solid", outlineColor: "teal.500" }}
      >
        <input {...getInputProps({ "aria-label": "Image" })} />
        <Text>{isDragActive ? "Drop the image here" : "Drag an image here, or click to choose one"}</Text>
        <Text fontSize="sm" color="fg.muted">
          {hint}
        </Text>
      </Box>
      {(file || rejection) && (
        <HStack mt="3" gap="3" wrap="wrap">
          {file && preview && (
            <Image src={preview} alt="Chosen image" boxSize="16" objectFit="cover" borderRadius="md" />
          )}
          {file && <Text fontSize="sm">{file.name}</Text>}
          {file && (
            <Button size="xs" variant="ghost" onClick={() => onChange(undefined)}>
              Remove
            </Button>
          )}
          {rejection && (
            <Text role="alert" color="fg.error" fontSize="sm">
              {rejection}
            </Text>
          )}
        </HStack>
      )}
    </Box>
  );
}
