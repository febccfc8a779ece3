import { useMutation } from "@tanstack/react-query";
import { getDefaultStore } from "jotai";
import { type CloseAccountInput, closingStateSchema } from "#shared/schemas/leaving.ts";
import { api } from "../../../lib/api-client.ts";
import { formatDate } from "../../../lib/format.ts";
import { sessionStore, signedOutNoticeAtom } from "../../../lib/session.ts";

/**
 * The server ends every session of the account, and the app forgets its own. Done here rather than in the form:
 * the ended session may already have sent the app to /login (the live stream closes), and the login page still
 * has to say when the account will be erased.
 */
export const useCloseAccount = () =>
  useMutation({
    mutationFn: (input: CloseAccountInput) =>
      api("/api/users/close", closingStateSchema, { method: "POST", body: input }),
    onSuccess: ({ closesAt }) => {
      getDefaultStore().set(
        signedOutNoticeAtom,
        `Your account will be closed on ${formatDate(closesAt ?? "")}. Changed your mind? Sign in before then and nothing is erased.`,
      );
      sessionStore.clear();
    },
  });
