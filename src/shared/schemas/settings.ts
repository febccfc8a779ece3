import { z } from "zod";

export const siteSettingsSchema = z.object({
  siteName: z
    .string({ error: "Site name is required" })
    .trim()
    .min(1, "Site name is required")
    .max(60, "Site name is at most 60 characters"),
  siteDescription: z
    .string({ error: "Site description is required" })
    .trim()
    .min(1, "Site description is required")
    .max(300, "Site description is at most 300 characters"),
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
  chain: z.object({ id: z.number().int(), name: z.string(), rpcUrl: z.string() }),
  feeRecipient: z.string(),
  feeWei: z.string(),
  minConfirmations: z.number().int(),
  mail: z.object({ transport: z.enum(["smtp", "outbox"]), queued: z.number().int(), sent: z.number().int() }),
});
export type SystemStatus = z.infer<typeof systemStatusSchema>;
