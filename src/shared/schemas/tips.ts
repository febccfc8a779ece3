import { z } from "../zod.ts";

/** Tips that count (not reorged): how many, and their total in wei (decimal text). */
export const tipTotalsSchema = z.object({ count: z.int(), totalWei: z.string() });
export type TipTotals = z.infer<typeof tipTotalsSchema>;
