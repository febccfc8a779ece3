import { and, eq, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { posts, users } from "../../db/schema.ts";
import { periodic } from "../../infra/periodic.ts";
import type { Deps } from "../core/deps.ts";
import { queuePostActivity } from "../core/federation-queue.ts";
import { pastTheLimit } from "../core/new-accounts.ts";
import { cacheTags } from "../core/tags.ts";
import { announceNewPost, fanOutNewPost } from "../notifications/fan-out.ts";
import { notify } from "../notifications/notify.ts";
import { recordRevision } from "../provenance/revisions.ts";
import { postEvent } from "../webhooks/post-events.ts";

/** Authors past the new-account rules (staff, or verified and a day old): their due posts go out in one UPDATE. */
const TRUSTED_AUTHOR = sql`exists (select 1 from ${users} where ${users.id} = ${posts.userId} and (${users.isAdmin}
  or ${users.isModerator} or (${users.isAccountVerified} and ${users.createdAt} <= now() - interval '1 day')))`;
/** A new account's scheduled post past its day's few is looked at again this much later. */
const RETRY_LATER = sql`now() + interval '1 hour'`;
const due = and(eq(posts.status, "scheduled"), lte(posts.publishedAt, sql`now()`));

type Published = { id: string; authorId: string };

/** Each new account's due post on its own, its author's row locked: scheduling does not dodge the day's limit. */
async function publishNewAccountsPosts(deps: Pick<Deps, "db" | "config">, tx: Db) {
  const waiting = await tx
    .select({ id: posts.id, authorId: posts.userId })
    .from(posts)
    .where(and(due, sql`not ${TRUSTED_AUTHOR}`))
    .orderBy(posts.publishedAt)
    .limit(100);
  const published: Published[] = [];
  for (const post of waiting) {
    // Locked, not refused: a blocked or suspended author's post goes out hidden, as a trusted author's does.
    const [author] = await tx.select().from(users).where(eq(users.id, post.authorId)).for("update");
    const later = !author || (await pastTheLimit(tx, deps.config, author));
    const rows = await tx
      .update(posts)
      .set(later ? { publishedAt: RETRY_LATER } : { status: "published", updatedAt: new Date() })
      .where(and(eq(posts.id, post.id), due))
      .returning({ id: posts.id, authorId: posts.userId });
    if (!later) published.push(...rows);
  }
  return published;
}

/**
 * Publishes the scheduled posts whose time has come, tells their authors' followers in the same transaction, and
 * answers their ids. One UPDATE: when several instances run it at once, PostgreSQL re-checks the loser's WHERE
 * against the winner's row, so each post is published (and announced) once.
 */
export async function publishDuePosts(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log" | "changed" | "storage">,
) {
  const published = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .update(posts)
      .set({ status: "published", updatedAt: new Date() })
      .where(and(due, TRUSTED_AUTHOR))
      .returning({ id: posts.id, authorId: posts.userId });
    rows.push(...(await publishNewAccountsPosts(deps, tx)));
    const done = [];
    for (const row of rows) {
      await recordRevision(deps, tx, row.id);
      await queuePostActivity(
        { db: tx, config: deps.config },
        { action: "create", postId: row.id, authorId: row.authorId },
      );
      await postEvent(tx, "published", row.id, row.authorId);
      done.push({ ...row, fannedOut: await fanOutNewPost({ db: tx, config: deps.config }, row.id) });
    }
    return done;
  });
  if (published.length > 0) deps.changed([cacheTags.posts, ...published.map((post) => cacheTags.post(post.id))]);
  for (const post of published) {
    announceNewPost(deps, post.id, post.fannedOut);
    await notify(deps, {
      kind: "published",
      recipientId: post.authorId,
      actorId: null,
      postId: post.id,
      group: post.id,
    });
  }
  return published.map((post) => post.id);
}

/**
 * Publishes scheduled posts when their time comes: at start (so a post due while no server ran goes out at once)
 * and every few seconds after, on every instance. The UPDATE itself decides who publishes a post, so with several
 * instances each post is published exactly once; a failed check (database away) is tried again at the next.
 */
export function createPublisher(
  deps: Pick<Deps, "db" | "log" | "config" | "mailer" | "bus" | "changed" | "storage">,
  /** `everyMs`: how late a scheduled post may go out at most (PUBLISH_CHECK_MS), plus the time one check takes. */
  options: { everyMs: number },
) {
  const publisher = {
    /** Publishes what is due; answers the ids this instance published. */
    async publishDue() {
      const ids = await publishDuePosts(deps);
      for (const id of ids) deps.log.info({ postId: id }, "scheduled post published");
      return ids;
    },
  };
  return {
    ...publisher,
    ...periodic(() => publisher.publishDue(), {
      everyMs: options.everyMs,
      atStart: true,
      onError: (error) => deps.log.warn({ err: error }, "publishing scheduled posts failed"),
    }),
  };
}
export type Publisher = ReturnType<typeof createPublisher>;
