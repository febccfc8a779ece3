import { Box } from "@chakra-ui/react";
import DOMPurify from "dompurify";
import { useMemo } from "react";

/**
 * Shows post HTML read-only. The server already sanitised it; it is sanitised again in the browser so that the
 * browser never trusts stored HTML on its own. (The server's renderer, which has no DOM, writes what the server
 * sanitised; the browser keeps that markup while it hydrates.)
 */
export function RichText({ html }: { html: string }) {
  const clean = useMemo(
    () =>
      typeof window === "undefined"
        ? html
        : DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_ATTR: ["onerror", "onload"] }),
    [html],
  );
  return (
    <Box
      className="rich-text"
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
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server and again by DOMPurify above.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}
