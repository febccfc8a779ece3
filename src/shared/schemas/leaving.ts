import { z } from "zod";

/** Days between asking to close an account and its erasure: signing in before then keeps it. */
export const CLOSING_GRACE_DAYS = 14;

/** What a closed account's name becomes wherever what it left stays (kept posts, comments, payments). */
export const FORMER_MEMBER = { firstName: "A former", lastName: "member" } as const;

export const closeAccountSchema = z.object({
  password: z.string().min(1, "Password is required").max(1000),
  /** Keep the published posts, under "A former member" (true), or remove them with the account (false). */
  keepPosts: z.boolean(),
});
export type CloseAccountInput = z.infer<typeof closeAccountSchema>;

/** Where closing stands: when the account will be erased, or null when it is not closing. */
export const closingStateSchema = z.object({ closesAt: z.iso.datetime({ offset: true }).nullable() });
export type ClosingState = z.infer<typeof closingStateSchema>;
