import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { writeBehind } from "../../infra/write-behind.ts";

const VIEW_WINDOW = "1 hour";
const FLUSH_EVERY_MS = 1000;
/** Views held while the database cannot take them; past this the oldest are dropped, with a warning. */
const MAX_PENDING = 100_000;

/** A signed-in reader by id, an anonymous one by address. */
type Viewer = { userId: string } | { address: string; userId: null };
type View = Viewer & { postId: string; at: Date };

/** The key a viewer is counted under: `u:<user id>`, or `a:` and a hash, so addresses are not stored. */
function viewerKey(view: View) {
  if (view.userId) return `u:${view.userId}`;
  const address = (view as { address: string }).address;
  return `a:${crypto.createHash("sha256").update(address).digest("base64url").slice(0, 22)}`;
}

/**
 * Post views are counted off the request path: a page view is a note in memory, written in one statement a second
 * (so counts lag by about that), on shutdown, and again after a failed write. The statement keeps the rules: a
 * viewer counts once an hour per post, the author never.
 */
export function createViewBuffer(options: { db: Db; log: FastifyBaseLogger }) {
  async function write(views: View[]): Promise<number> {
    const result = await options.db.execute(sql`
      with input as (
        select * from json_to_recordset(${JSON.stringify(
          views.map((view) => ({
            post_id: view.postId,
            viewer_key: viewerKey(view),
            user_id: view.userId,
            viewed_at: view.at.toISOString(),
          })),
        )}::json) as t(post_id uuid, viewer_key text, user_id uuid, viewed_at timestamptz)
      ),
      counted as (
        insert into post_views (post_id, viewer_key, viewed_at)
        select input.post_id, input.viewer_key, input.viewed_at
        from input join posts on posts.id = input.post_id and posts.user_id is distinct from input.user_id
        on conflict (post_id, viewer_key) do update set viewed_at = excluded.viewed_at
          where post_views.viewed_at <= excluded.viewed_at - interval '${sql.raw(VIEW_WINDOW)}'
        returning post_id
      ),
      totals as (select post_id, count(*)::int as n from counted group by post_id)
      update posts set num_views = num_views + totals.n from totals where posts.id = totals.post_id
      returning posts.id`);
    return (result as unknown as { rows: unknown[] }).rows.length;
  }

  const notes = writeBehind<View>({
    everyMs: FLUSH_EVERY_MS,
    max: MAX_PENDING,
    write,
    // Views that arrived meanwhile win for the same viewer.
    giveBack: (failed, meanwhile) => meanwhile ?? failed,
    log: options.log,
    what: "post views",
  });

  const buffer = {
    record(view: Viewer & { postId: string }) {
      const key = `${view.postId}|${view.userId ?? (view as { address: string }).address}`;
      const pending = notes.pending();
      if (!pending.has(key)) pending.set(key, { ...view, at: new Date() });
    },
    /** Writes what is pending (one flush at a time); resolves with how many posts' counts changed. */
    flush: notes.flush,
    start: notes.start,
    close: notes.close,
  };
  return buffer;
}
export type ViewBuffer = ReturnType<typeof createViewBuffer>;
