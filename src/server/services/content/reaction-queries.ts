import { and, eq, inArray, sql } from "drizzle-orm";
import { posts, reactions } from "../../db/schema.ts";
import { preparedFor, statement } from "../../db/statement.ts";
import type { Deps } from "../core/deps.ts";
import { isReachable } from "../core/post-queries.ts";

const reactionColumns = { postId: reactions.postId, kind: reactions.kind };
/** A reader's reaction to one post: what a post's page asks for a signed-in reader. */
const reactionToOne = preparedFor((db) =>
  db
    .select(reactionColumns)
    .from(reactions)
    .where(and(eq(reactions.postId, sql.placeholder("postId")), eq(reactions.userId, sql.placeholder("userId"))))
    .prepare("reaction_to_one"),
);

/** A reader's own reactions to some posts, in one query on the reactions key. */
export async function reactionsOf(deps: Pick<Deps, "db">, userId: string, postIds: string[]) {
  if (postIds.length === 0) return new Map<string, "like" | "dislike">();
  const rows =
    postIds.length === 1
      ? await reactionToOne(deps.db).execute({ postId: postIds[0], userId })
      : await deps.db
          .select(reactionColumns)
          .from(reactions)
          .where(and(inArray(reactions.postId, postIds), eq(reactions.userId, userId)));
  return new Map(rows.map((row) => [row.postId, row.kind]));
}

/** The toggle of `react`, in one statement. */
export const toggle = statement<{ postId: string; userId: string; kind: "like" | "dislike" }, { published: boolean }>(
  () => sql`
    with post as (select ${posts.id} from ${posts} where ${posts.id} = ${sql.placeholder("postId")} and ${isReachable}),
    taken_back as (
      delete from ${reactions}
      where ${reactions.postId} = ${sql.placeholder("postId")} and ${reactions.userId} = ${sql.placeholder("userId")}
        and ${reactions.kind} = ${sql.placeholder("kind")} and exists (select 1 from post)
      returning 1),
    given as (
      insert into ${reactions} (post_id, user_id, kind)
      select id, ${sql.placeholder("userId")}, ${sql.placeholder("kind")} from post where not exists (select 1 from taken_back)
      on conflict (post_id, user_id) do update set kind = excluded.kind
      returning 1)
    select exists (select 1 from post) as published`,
);
