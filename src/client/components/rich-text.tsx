import { Box } from "@chakra-ui/react";
import type { DOMPurify } from "dompurify";
import { useEffect, useState, useSyncExternalStore } from "react";

let purify: DOMPurify | undefined;
const subscribe = () => () => {};
let loading: Promise<DOMPurify> | undefined;

/** DOMPurify, once its chunk is in (fetched the first time it is `needed`); a failed fetch is thrown in render. */
function useSanitizer(needed: boolean) {
  const [failure, setFailure] = useState<unknown>();
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (!needed || purify) return;
    let live = true;
    loading ??= import("dompurify").then((module) => (purify = module.default));
    loading.then(
      () => live && setLoaded(true),
      (error: unknown) => live && setFailure(() => error),
    );
    return () => {
      live = false;
    };
  }, [needed]);
  if (failure) throw failure;
  return purify;
}

/**
 * Shows post HTML read-only. The server sanitised it when it was stored, and the browser sanitises again every HTML it
 * puts into the page itself, so it never trusts stored HTML on its own. The markup a page was served with is the
 * exception: the server wrote it (sanitised) and hydration keeps the DOM as it is, so DOMPurify (11 KiB) is fetched
 * only when other HTML is to be shown (another post opened in the app, a reply from the fediverse).
 */
export function RichText({ html }: { html: string }) {
  // True only as the server renders and as the browser hydrates this element (React reads the server's snapshot
  // then); an element the browser mounts itself, even while the rest of the page hydrates, reads false.
  const hydrating = useSyncExternalStore(
    subscribe,
    () => false,
    () => true,
  );
  const [served] = useState(() => (hydrating ? html : null));
  const fromServer = html === served;
  const sanitizer = useSanitizer(!fromServer);
  const clean = fromServer
    ? html
    : (sanitizer?.sanitize(html, { USE_PROFILES: { html: true }, FORBID_ATTR: ["onerror", "onload"] }) ?? "");
  return (
    <Box
      className="rich-text"
      aria-busy={fromServer || sanitizer ? undefined : true}
      lineHeight="1.8"
      fontSize="lg"
      css={{
        "& h1": { fontSize: "2xl", fontWeight: "bold", mt: "6", mb: "2" },
        "& h2": { fontSize: "xl", fontWeight: "semibold", mt: "5", mb: "2" },
        "& p": { mb: "3" },
        "& blockquote": { borderLeftWidth: "4px", borderColor: "teal.500", ps: "4", color: "fg.muted", my: "4" },
        "& ul": { ps: "6", listStyleType: "disc", mb: "3" },
        "& ol": { ps: "6", listStyleType: "decimal", mb: "3" },
        "& a": { color: "teal.fg", textDecoration: "underline" },
        "& img": { maxW: "full", borderRadius: "md", my: "3" },
        ...Object.fromEntries(
          [1, 2, 3, 4, 5, 6, 7, 8].map((level) => [`& .indent-${level}`, { ps: `${level * 2}em` }]),
        ),
      }}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the served page's own markup, or sanitised by DOMPurify above.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
