import { z } from "../zod.ts";
import { emailSchema } from "./users.ts";

/** "Subscribe by e-mail": an author's new posts by mail, for anyone with an address (no account, no wallet). */
export const subscribeSchema = z.object({
  authorId: z.uuid("Unknown author"),
  email: emailSchema("Enter your e-mail address"),
});
export type SubscribeInput = z.infer<typeof subscribeSchema>;

/** The answer whatever the address's state, so the form tells nobody who is subscribed already. */
export const SUBSCRIBE_SENT = "Almost done: open the link we sent to your e-mail to confirm your subscription.";
export const subscribeResultSchema = z.object({ message: z.string() });

export const INVALID_CONFIRMATION =
  "This confirmation link is not valid or has expired. Subscribe again to get a new one.";
export const INVALID_SUBSCRIPTION_LINK = "This unsubscribe link is not valid";

/** A confirmed (or already confirmed) subscription: whose posts will come. */
export const confirmResultSchema = z.object({
  authorId: z.uuid(),
  authorName: z.string(),
  email: z.string(),
});
export type ConfirmResult = z.infer<typeof confirmResultSchema>;

export const confirmParamsSchema = z.object({ token: z.string().check(z.minLength(20), z.maxLength(100)) });

/** What a subscriber's unsubscribe link carries: the subscription and the server's signature over it. */
export const subscriptionLinkSchema = z.object({
  id: z.uuid(INVALID_SUBSCRIPTION_LINK),
  token: z.string().check(z.regex(/^[0-9a-f]{32}$/, INVALID_SUBSCRIPTION_LINK)),
});
export type SubscriptionLink = z.infer<typeof subscriptionLinkSchema>;

export const subscriptionStateSchema = z.object({
  authorName: z.string(),
  email: z.string(),
  status: z.enum(["pending", "active", "unsubscribed"]),
});
export type SubscriptionState = z.infer<typeof subscriptionStateSchema>;

/** An author's own subscribers, as counted on their profile. */
export const subscriberCountsSchema = z.object({ active: z.int(), pending: z.int() });
export type SubscriberCounts = z.infer<typeof subscriberCountsSchema>;
