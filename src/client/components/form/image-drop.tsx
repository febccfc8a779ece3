import { Box, Button, HStack, Image, Text } from "@chakra-ui/react";
import { useEffect, useMemo } from "react";
import { useDropzone } from "react-dropzone";
import { MAX_UPLOAD_BYTES } from "#shared/constants.ts";

interface ImageDropProps {
  file: File | undefined;
  onChange: (file: File | undefined) => void;
  hint: string;
  accept?: Record<string, string[]>;
}

/** One image by drag-and-drop or the file picker; react-dropzone's own messages explain a rejection. */
export function ImageDrop({
  file,
  onChange,
  hint,
  accept = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"] },
}: ImageDropProps) {
  const { getRootProps, getInputProps, isDragActive, fileRejections } = useDropzone({
    accept,
    maxFiles: 1,
    multiple: false,
    maxSize: MAX_UPLOAD_BYTES,
    onDropAccepted: (files) => onChange(files[0]),
  });
  const preview = useMemo(
    () => (file && typeof URL.createObjectURL === "function" ? URL.createObjectURL(file) : undefined),
    [file],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const rejection = fileRejections[0]?.errors.map((error) => error.message).join(", ");

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
        <input {...getInputProps()} aria-label="Image" />
        <Text>{isDragActive ? "Drop the image here" : "Drag an image here, or click to choose one"}</Text>
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
