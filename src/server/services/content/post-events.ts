import type { Db } from "../../db/client.ts";
import { recordEvent } from "../webhooks/events.ts";
import { getPost } from "./post-reads.ts";

// A post's webhook events, each in the transaction of its change: a public post as the API shows it; what left
// public view carries its id alone.

type Tx = Pick<Db, "execute" | "select">;

/** A post became public, changed while public, left public view (draft, hidden, suspended) or was deleted. */
export function postEvent(
  tx: Tx,
  action: "published" | "updated" | "unpublished" | "deleted",
  postId: string,
  authorId: string,
) {
  return recordEvent(tx, {
    type: `post.${action}`,
    ownerId: authorId,
    data: async () =>
      action === "published" || action === "updated"
        ? getPost({ db: tx as Db }, postId, null)
        : { id: postId, authorId },
  });
}

/** The federation's post activities, as webhook events. */
export const postActivityEvent = (tx: Tx, action: "create" | "update" | "delete", postId: string, authorId: string) =>
  postEvent(tx, action === "create" ? "published" : action === "update" ? "updated" : "unpublished", postId, authorId);
