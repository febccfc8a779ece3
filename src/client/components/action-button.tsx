import { Button, type ButtonProps } from "@chakra-ui/react";

/**
 * A button whose action reloads the list or screen it stands in (like, follow, block, load more). While `busy` it
 * looks and reads disabled and ignores presses, yet stays focusable: a button that is really disabled drops the
 * keyboard's focus to the top of the page.
 */
export function ActionButton({ busy, onClick, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button
      {...props}
      aria-disabled={busy || undefined}
      onClick={(event) => {
        if (!busy) onClick?.(event);
      }}
    />
  );
}
