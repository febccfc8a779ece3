import { useEffect, useState } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { useHydrated } from "../../lib/use-hydrated.tsx";

const PREFIX = "penchain:autosave:";
const AFTER_MS = 600;

interface Saved<T> {
  values: T;
  savedAt: string;
}

function read<T>(storageKey: string): Saved<T> | null {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? "null") as Saved<T> | null;
    return saved && typeof saved === "object" && saved.values && saved.savedAt ? saved : null;
  } catch {
    return null;
  }
}

/**
 * Keeps what is typed into a form in this browser a moment after each change, so a closed tab, a crash or a failed
 * request loses nothing (files are not kept: a browser cannot store them this way). A copy found when the form
 * opens that differs from what it shows is offered back, never applied unasked. `clear()` once the server has it.
 */
export function useAutosave<T extends FieldValues>(
  key: string,
  // Any form whose values are T, whatever its schema turns them into.
  form: Pick<UseFormReturn<T, unknown, FieldValues>, "watch" | "reset" | "getValues">,
) {
  const storageKey = PREFIX + key;
  const hydrated = useHydrated();
  const [offer, setOffer] = useState<Saved<T> | null>(null);
  // This browser's copy is looked for once the page is the browser's (a form the server rendered has none).
  const { getValues } = form;
  useEffect(() => {
    if (!hydrated) return;
    const saved = read<T>(storageKey);
    setOffer(saved && JSON.stringify(saved.values) !== JSON.stringify(getValues()) ? saved : null);
  }, [hydrated, storageKey, getValues]);
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  /** Bumped on restore, as a key for fields that read their value once (the rich-text editor). */
  const [version, setVersion] = useState(0);
  const { watch } = form;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = watch((values) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const at = new Date();
        try {
          localStorage.setItem(storageKey, JSON.stringify({ values, savedAt: at.toISOString() }));
          setSavedAt(at);
        } catch {
          // Storage full or switched off: the form itself still holds everything.
        }
      }, AFTER_MS);
    });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [storageKey, watch]);

  return {
    /** When the form was last kept, in this visit. */
    savedAt,
    /** A copy from before, with its time, until restored or discarded. */
    offer,
    version,
    restore() {
      if (offer) form.reset(offer.values, { keepDefaultValues: true });
      setOffer(null);
      setVersion((current) => current + 1);
    },
    discard() {
      setOffer(null);
    },
    clear() {
      localStorage.removeItem(storageKey);
      setSavedAt(null);
    },
  };
}
export type Autosave = ReturnType<typeof useAutosave>;
