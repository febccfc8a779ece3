import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from "../constants.ts";
import { z } from "../zod.ts";

export const pageQuerySchema = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(PAGE_SIZE_MAX)), PAGE_SIZE_DEFAULT),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pageOf = <T extends z.ZodMiniType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.nullable(z.string()) });

/** Every list answers one page: `{ items, nextCursor }` (the API's rule for lists). */
export type Page<T> = { items: T[]; nextCursor: string | null };
