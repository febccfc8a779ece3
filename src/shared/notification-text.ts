import type { NotificationKind } from "./schemas/notifications.ts";
import { formatEth, oneLine } from "./text.ts";

/**
 * What a notification says, in words, the same in the app, in a mail and in a digest: "Ana and 3 others liked
 * your post “Title”".
 */
export function describeNotification(event: {
  kind: NotificationKind;
  actor: string | null;
  others: number;
  postTitle: string | null;
  amountWei: string | null;
}) {
  const who = event.actor
    ? `${oneLine(event.actor)}${event.others > 0 ? ` and ${event.others} other${event.others === 1 ? "" : "s"}` : ""}`
    : "Someone";
  const post = event.postTitle ? `“${oneLine(event.postTitle)}”` : "";
  const amount = event.amountWei ? formatEth(event.amountWei) : "";
  switch (event.kind) {
    case "follow":
      return `${who} started following you`;
    case "like":
      return `${who} liked your post ${post}`;
    case "comment":
      return `${who} commented on your post ${post}`;
    case "reward":
      return `${who} rewarded you`;
    case "tip":
      return `${who} tipped you${amount ? ` ${amount}` : ""}${post ? ` for ${post}` : ""}`;
    case "published":
      return `Your scheduled post ${post} is published`;
    case "payment_confirmed":
      return `Your featured payment${amount ? ` of ${amount}` : ""} for ${post || "your post"} is final`;
    case "payment_reorged":
      return `Your featured payment for ${post || "your post"} left the chain: the post is no longer featured`;
    case "new_post":
      return `${who} published ${post}`;
    case "moderation":
      return `A moderator made a decision about ${post ? `what you wrote on ${post}` : "your account or profile"}: see it, and appeal it if you think it is wrong`;
  }
}
