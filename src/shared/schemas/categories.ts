import { z } from "../zod.ts";
import { userSummarySchema } from "./users.ts";

export const categoryInputSchema = z.object({
  title: z
    .string({ error: "Title is required" })
    .check(z.trim(), z.minLength(1, "Title is required"), z.maxLength(60, "Title is at most 60 characters")),
});
export type CategoryInput = z.infer<typeof categoryInputSchema>;

export const categoryIdParamsSchema = z.object({ id: z.uuid("Invalid category id") });

export const categorySchema = z.object({
  _id: z.string(),
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
  /** The creator; `email` only for admins. */
  user: z.extend(userSummarySchema, { email: z.optional(z.string()) }),
});
export type Category = z.infer<typeof categorySchema>;
