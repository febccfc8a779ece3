import { z } from "zod";
import { userSummarySchema } from "./users.ts";

export const categoryInputSchema = z.object({
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(60, "Title is at most 60 characters"),
});
export type CategoryInput = z.infer<typeof categoryInputSchema>;

export const categoryIdParamsSchema = z.object({ id: z.uuid("Invalid category id") });

export const categorySchema = z.object({
  _id: z.string(),
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  /** The creator; `email` only for admins. */
  user: userSummarySchema.extend({ email: z.string().optional() }),
});
export type Category = z.infer<typeof categorySchema>;
