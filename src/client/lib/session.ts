import { atom, getDefaultStore, useAtomValue, useSetAtom } from "jotai";
import { atomWithStorage, createJSONStorage, RESET } from "jotai/utils";
import { SESSION_STORAGE_KEY } from "#shared/constants.ts";
import { type Session, sessionSchema } from "#shared/schemas/session.ts";
import { useHydrated } from "./use-hydrated.tsx";

// localStorage; where there is none (the server rendering reader pages) it answers nothing: signed out.
const jsonStorage = createJSONStorage<Session | null>();

/** The signed-in user (the login response), persisted under `userInfo`; anything unreadable there means signed out. */
export const sessionAtom = atomWithStorage<Session | null>(
  SESSION_STORAGE_KEY,
  null,
  {
    ...jsonStorage,
    getItem: (key, initialValue) => {
      const stored = jsonStorage.getItem(key, initialValue);
      return sessionSchema.safeParse(stored).success ? stored : null;
    },
  },
  { getOnInit: true },
);

/** The session, once hydrated: server-rendered pages are the same for everyone until then. */
export function useSession() {
  const session = useAtomValue(sessionAtom);
  return useHydrated() ? session : null;
}
export const useSetSession = () => useSetAtom(sessionAtom);

/** Logging out removes `userInfo` from storage rather than storing null. */
export function useClearSession() {
  const setSession = useSetAtom(sessionAtom);
  return () => setSession(RESET);
}

/** For code outside React (the API client). */
export const sessionStore = {
  get: () => getDefaultStore().get(sessionAtom),
  clear: () => getDefaultStore().set(sessionAtom, RESET),
};

/** Why the session just ended, for the login page to say (closing an account tells when it will be erased). */
export const signedOutNoticeAtom = atom<string | null>(null);
