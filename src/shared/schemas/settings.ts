import { z } from "../zod.ts";

export const siteSettingsSchema = z.object({
  siteName: z
    .string({ error: "Site name is required" })
    .check(z.trim(), z.minLength(1, "Site name is required"), z.maxLength(60, "Site name is at most 60 characters")),
  siteDescription: z
    .string({ error: "Site description is required" })
    .check(
      z.trim(),
      z.minLength(1, "Site description is required"),
      z.maxLength(300, "Site description is at most 300 characters"),
    ),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** The site's name and description until an admin changes them: the table's defaults, and the client's meanwhile. */
export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  siteName: "Penchain",
  siteDescription: "A blog made with blockchain.",
};

/** What an admin sees of the running system. */
export const systemStatusSchema = z.object({
  database: z.enum(["pglite", "postgres"]),
  chain: z.object({ id: z.int(), name: z.string(), rpcUrl: z.string() }),
  feeRecipient: z.string(),
  feeWei: z.string(),
  minConfirmations: z.int(),
  mail: z.object({ transport: z.enum(["smtp", "outbox"]), queued: z.int(), sent: z.int() }),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;
