import { Field, Input, Textarea } from "@chakra-ui/react";
import type { InputHTMLAttributes } from "react";
import type { FieldError, UseFormRegisterReturn } from "react-hook-form";

interface TextFieldProps {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError | undefined;
  type?: InputHTMLAttributes<HTMLInputElement>["type"];
  placeholder?: string;
  autoComplete?: string;
  readOnly?: boolean;
  multiline?: boolean;
  helperText?: string;
}

/** A labelled input whose error shows under it; react-hook-form decides when (after the field is touched). */
export function TextField({ label, registration, error, multiline, helperText, ...input }: TextFieldProps) {
  return (
    <Field.Root invalid={Boolean(error)} readOnly={input.readOnly}>
      <Field.Label>{label}</Field.Label>
      {multiline ? (
        <Textarea {...registration} placeholder={input.placeholder} rows={5} />
      ) : (
        <Input {...registration} {...input} />
      )}
      {helperText && <Field.HelperText>{helperText}</Field.HelperText>}
      <Field.ErrorText>{error?.message}</Field.ErrorText>
    </Field.Root>
  );
}
