import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { posts } from "../../db/schema.ts";
import { selectPosts, toPost } from "../core/post-queries.ts";
import { recordEvent, recordEvents } from "./events.ts";

/** A post as the API's list shows it to a visitor, read in the change's transaction. */
async function shownPost(tx: Db, postId: string) {
  const [row] = await selectPosts({ db: tx }, null, { where: eq(posts.id, postId), limit: 1 });
  return row ? toPost(row) : { id: postId };
}

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
      action === "published" || action === "updated" ? shownPost(tx as Db, postId) : { id: postId, authorId },
  });
}

/** The federation's post activities, as webhook events. */
export const postActivityEvent = (tx: Tx, action: "create" | "update" | "delete", postId: string, authorId: string) =>
  postEvent(tx, action === "create" ? "published" : action === "update" ? "updated" : "unpublished", postId, authorId);

/** Public posts of one author deleted together (an account erased): `post.deleted` each. */
export const postsDeleted = (tx: Tx, authorId: string, postIds: string[]) =>
  recordEvents(
    tx,
    "post.deleted",
    postIds.map((id) => ({ ownerId: authorId, data: () => ({ id, authorId }) })),
  );
