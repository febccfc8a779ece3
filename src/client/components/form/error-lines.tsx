import { Text } from "@chakra-ui/react";
import { splitError } from "../../lib/api-client.ts";
import { isShownAtFields } from "./shown-at-fields.ts";

/**
 * The red error line (docs/specification.md §Errors, loading and empty texts): the server's message (appErr) and the
 * client or network message (serverErr). A refusal shown field by field (see useZodForm) is not repeated here.
 */
export function ErrorLines({ error }: { error: unknown }) {
  if (isShownAtFields(error)) return null;
  const { appErr, serverErr } = splitError(error);
  if (!appErr && !serverErr) return null;
  return (
    <Text role="alert" color="fg.error" fontWeight="medium">
      {[appErr, serverErr].filter(Boolean).join(" ")}
    </Text>
  );
}
