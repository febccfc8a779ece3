import { z } from "../zod.ts";

/** Days between asking to close an account and its erasure: signing in before then keeps it. */
export const CLOSING_GRACE_DAYS = 14;

/** What a closed account's name becomes wherever what it left stays (kept posts, comments, payments). */
export const FORMER_MEMBER = { firstName: "A former", lastName: "member" } as const;

export const closeAccountSchema = z.object({
  password: z.string().check(z.minLength(1, "Password is required"), z.maxLength(1000)),
  /** Keep the published posts, under "A former member" (true), or remove them with the account (false). */
  keepPosts: z.boolean(),
});
export type CloseAccountInput = z.infer<typeof closeAccountSchema>;

/** Where closing stands: when the account will be erased, or null when it is not closing. */
export const closingStateSchema = z.object({ closesAt: z.nullable(z.iso.datetime({ offset: true })) });
export type ClosingState = z.infer<typeof closingStateSchema>;

/** "Download my data": an archive prepared in the background, whose link is mailed (it works once, for 7 days). */
export const dataExportSchema = z.object({
  id: z.uuid(),
  status: z.enum(["queued", "running", "ready", "failed", "downloaded", "expired"]),
  createdAt: z.iso.datetime({ offset: true }),
  readyAt: z.nullable(z.iso.datetime({ offset: true })),
  expiresAt: z.nullable(z.iso.datetime({ offset: true })),
});
export type DataExport = z.infer<typeof dataExportSchema>;
export const exportIdParamsSchema = z.object({ id: z.uuid("Unknown export") });
export const downloadParamsSchema = z.object({
  id: z.uuid("Unknown export"),
  token: z.string().check(z.minLength(20), z.maxLength(100)),
});
