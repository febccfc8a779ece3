import { z } from "../zod.ts";

/**
 * What every signed-in page hears live: the bell's unread count and how many read a post now. Apart from the
 * notifications' and stats' schemas, so a page builds these two without building those.
 */
export const unreadCountSchema = z.object({
  /** Counted up to a bound: the bell shows "99+" past it. */
  count: z.int(),
});
export const UNREAD_COUNT_LIMIT = 100;

export const readingNowSchema = z.object({ count: z.number() });
