import { Button, type ButtonProps } from "@chakra-ui/react";

/**
 * The busy texts (docs/specification.md §Errors, loading and empty texts): most forms say "Loading please wait...",
 * Login "Loading...", Register lower-case.
 */
export const BUSY = {
  default: "Loading please wait...",
  login: "Loading...",
  register: "loading please wait...",
} as const;

/** A form's submit button, disabled and relabelled while its request is on its way. */
export function SubmitButton({
  pending,
  children,
  busyText = BUSY.default,
  ...props
}: ButtonProps & { pending: boolean; children: string; busyText?: string }) {
  return (
    <Button type="submit" colorPalette="teal" alignSelf="flex-start" disabled={pending} {...props}>
      {pending ? busyText : children}
    </Button>
  );
}
