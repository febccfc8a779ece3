import { Text } from "@chakra-ui/react";
import { splitError } from "../../lib/api-client.ts";

/** The spec's red error line: the server's message (appErr) and the client or network message (serverErr). */
export function ErrorLines({ error }: { error: unknown }) {
  const { appErr, serverErr } = splitError(error);
  if (!appErr && !serverErr) return null;
  return (
    <Text role="alert" color="fg.error" fontWeight="medium">
      {[appErr, serverErr].filter(Boolean).join(" ")}
    </Text>
  );
}
