import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { POST_NOT_FOUND } from "../core/post-queries.ts";
import { cacheTags } from "../core/tags.ts";
import { notify, withdraw } from "../notifications/notify.ts";
import { toggle } from "./reaction-queries.ts";
import { getPost } from "./shown-posts.ts";

/**
 * Likes and dislikes are exclusive and toggle (docs/product.md), in one statement: the same reaction again
 * is taken back, the other one replaces it, and a post that is not published takes none. Concurrent clicks of one
 * reader queue on the row's lock and apply in turn, and counts follow the rows through the table's triggers, so
 * they stay exact under any concurrency.
 */
export async function react(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed">,
  user: AuthUser,
  postId: string,
  kind: "like" | "dislike",
) {
  const [row] = await toggle(deps.db, { postId, userId: user.id, kind });
  if (!row?.published) throw new HttpError(404, POST_NOT_FOUND);
  // The post's counts, and the reader's own reaction; every page showing the post keeps what it is.
  deps.changed([cacheTags.counts(postId), cacheTags.reaction(user.id, postId)]);
  const post = await getPost(deps, postId, user.id);
  // Its author is told of a like; a like taken back (or turned into a dislike) before they read it goes again.
  const like = { kind: "like" as const, recipientId: post.user.id, actorId: user.id, postId };
  if (post.viewerReaction === "like") await notify(deps, like);
  else await withdraw(deps, like);
  return post;
}
