import { z } from "../zod.ts";

/** Every error response of the API has this shape. */
export const apiErrorSchema = z.object({
  message: z.string(),
  issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;
