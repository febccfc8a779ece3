import { z } from "../zod.ts";

/** The archives Penchain reads, as the Import screen names them. */
export const IMPORT_FORMATS = {
  wxr: "WordPress (Tools → Export, the .xml, or a zip of it with wp-content/uploads)",
  ghost: "Ghost (Settings → Labs → Export, the .json, or a zip of it with content/images)",
  substack: "Substack (Settings → Exports, the zip)",
  markdown: "Markdown files with front matter (Jekyll, Hugo, Mirror, Paragraph), zipped",
} as const;
export type ImportFormat = keyof typeof IMPORT_FORMATS;
const formats = Object.keys(IMPORT_FORMATS) as [ImportFormat, ...ImportFormat[]];

/** The largest archive accepted (it is kept on disk while it is read, never in memory). */
export const MAX_IMPORT_BYTES = 1024 ** 3;

/** A multipart field that is a checkbox: "true" when ticked. */
const ticked = z.pipe(
  z.optional(z.enum(["true", "false", "on"])),
  z.transform((value) => value === "true" || value === "on"),
);

/** "old name = e-mail of the account here", one per line (the whole site's import). */
export const authorLinesSchema = z.pipe(
  z.optional(z.string().check(z.maxLength(20_000))),
  z.transform((text, context) => {
    const authors: Record<string, string> = {};
    for (const [index, line] of (text ?? "").split(/\r?\n/).entries()) {
      if (!line.trim()) continue;
      const at = line.lastIndexOf("=");
      const from = line.slice(0, at).trim();
      const to = line
        .slice(at + 1)
        .trim()
        .toLowerCase();
      if (at < 1 || !from || !/^[^\s@]+@[^\s@]+$/.test(to)) {
        context.issues.push({
          code: "custom",
          input: text,
          message: `Line ${index + 1}: write "old name = e-mail of the account here"`,
        });
        continue;
      }
      authors[from] = to;
    }
    return authors;
  }),
);

/** The file itself, kept on disk by the server as it arrives. */
export const storedUploadSchema = z
  .custom<{ path: string; name: string }>((value) => typeof value === "object" && value !== null && "path" in value, {
    error: "Choose the archive to import",
  })
  .check(z.meta({ type: "string", format: "binary" }));

/** `POST /api/imports` (multipart). */
export const importRequestSchema = z.object({
  format: z.enum(formats, { error: "Choose the archive's format" }),
  /** Fetch the posts' images from the old site's https addresses (never private ones). */
  fetchImages: ticked,
  /** Admins: the whole site, each post to the account its author maps to. */
  site: ticked,
  authors: authorLinesSchema,
  file: storedUploadSchema,
});
export type ImportRequest = z.infer<typeof importRequestSchema>;

export const importErrorSchema = z.object({ item: z.string(), reason: z.string() });
/** How many of the archive's items ended one way (the lines add up to every item in the archive). */
export const importReportLineSchema = z.object({ reason: z.string(), count: z.int() });

/** Where an import stands: items read of those found, what went wrong with which, and why it stopped. */
export const importStateSchema = z.object({
  id: z.uuid(),
  format: z.enum(formats),
  fileName: z.string(),
  status: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  total: z.int(),
  done: z.int(),
  errors: z.array(importErrorSchema),
  report: z.array(importReportLineSchema),
  error: z.nullable(z.string()),
  createdAt: z.iso.datetime({ offset: true }),
  finishedAt: z.nullable(z.iso.datetime({ offset: true })),
});
export type ImportState = z.infer<typeof importStateSchema>;
export const importIdParamsSchema = z.object({ id: z.uuid("Unknown import") });
