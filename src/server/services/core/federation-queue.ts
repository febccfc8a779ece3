import type { Db } from "../../db/client.ts";
import { federationQueue } from "../../db/schema.ts";
import type { Deps } from "./deps.ts";

// What the rest of the server queues for the fediverse, in its own transactions. Kept apart from the deliveries
// (outgoing.ts), so that a server that does not federate never loads Fedify.

/** The site's own actor (a `Group` on the fediverse), whose keys also sign its proofs and its moderation log. */
export const SITE_ACTOR = "site";

/** What happened to a post, for its followers on the fediverse. */
export interface PostActivity {
  type: "penchain:post";
  action: "create" | "update" | "delete";
  postId: string;
  authorId: string;
}

/** A user's name, handle, bio or photo changed: their followers' servers should show the new ones. */
export interface ActorUpdate {
  type: "penchain:actor";
  userId: string;
}

/** A user closed their account: their followers' servers are told the actor is gone (`Delete` of the actor). */
export interface ActorDelete {
  type: "penchain:actor-delete";
  userId: string;
}

/** A reader's report of a reply from the fediverse, forwarded to its server as the site's `Flag`. */
export interface FlagForward {
  type: "penchain:flag";
  replyId: string;
  /** The rule and the reader's note; never who reported. */
  content: string;
}

const typeOf = (message: unknown) =>
  typeof message === "object" && message !== null ? (message as { type?: unknown }).type : undefined;
export const isPostActivity = (message: unknown): message is PostActivity => typeOf(message) === "penchain:post";
export const isActorUpdate = (message: unknown): message is ActorUpdate => typeOf(message) === "penchain:actor";
export const isActorDelete = (message: unknown): message is ActorDelete => typeOf(message) === "penchain:actor-delete";
export const isFlagForward = (message: unknown): message is FlagForward => typeOf(message) === "penchain:flag";

/** One post's activities go out in the order they happened: its `Create`, then `Update`s, then `Delete`. */
export const postOrderingKey = (postId: string) => `post:${postId}`;

/**
 * Queues a message for the fediverse in the caller's transaction (the one that changed the post or the user), so
 * it is never lost and never sent for a change that was rolled back; nothing is queued when the site does not
 * federate. One post's (or user's) messages are handled in the order queued.
 */
async function queueForFediverse(
  deps: { db: Pick<Db, "insert">; config: Pick<Deps["config"], "federation"> },
  message: PostActivity | ActorUpdate | ActorDelete | FlagForward,
) {
  if (!deps.config.federation) return;
  const orderingKey =
    message.type === "penchain:post"
      ? postOrderingKey(message.postId)
      : message.type === "penchain:actor" || message.type === "penchain:actor-delete"
        ? `actor:${message.userId}`
        : `flag:${message.replyId}`;
  await deps.db.insert(federationQueue).values({ message, orderingKey });
}

/** Queues an `Update` of a user's actor (a new name, handle, bio or photo). */
export const queueActorUpdate = (deps: Parameters<typeof queueForFediverse>[0], userId: string) =>
  queueForFediverse(deps, { type: "penchain:actor", userId });

/** Queues the `Delete` of a closed account's actor, sent to its followers' servers. */
export const queueActorDelete = (deps: Parameters<typeof queueForFediverse>[0], userId: string) =>
  queueForFediverse(deps, { type: "penchain:actor-delete", userId });

/** Queues the forwarding of a report about a reply from the fediverse to the reply's server. */
export const queueFlagForward = (deps: Parameters<typeof queueForFediverse>[0], flag: Omit<FlagForward, "type">) =>
  queueForFediverse(deps, { type: "penchain:flag", ...flag });

/** Queues a post's activity: callers queue only published posts' changes, so a draft never federates. */
export const queuePostActivity = (
  deps: Parameters<typeof queueForFediverse>[0],
  activity: Omit<PostActivity, "type">,
) => queueForFediverse(deps, { type: "penchain:post", ...activity });
