import { inArray } from "drizzle-orm";
import { FORMER_MEMBER } from "#shared/schemas/leaving.ts";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { toUserSummary, userSummaryColumns } from "../core/user-fields.ts";
import { recordEvents } from "./events.ts";

type Tx = Pick<Db, "execute" | "select">;

/**
 * Follows that began or ended, in the transaction of the change: the followed user's webhooks hear who, as the API
 * shows a follower; one in `erased` (an account going for good, whose profile nobody may read) as a former member.
 */
export async function followEvents(
  tx: Tx,
  type: "follower.created" | "follower.deleted",
  pairs: { followerId: string; followeeId: string }[],
  erased: ReadonlySet<string> = new Set(),
) {
  if (pairs.length === 0) return;
  const followers = await tx
    .select(userSummaryColumns)
    .from(users)
    .where(inArray(users.id, [...new Set(pairs.map((pair) => pair.followerId))]));
  const byId = new Map(followers.map((follower) => [follower.id, follower]));
  await recordEvents(
    tx,
    type,
    pairs.flatMap(({ followerId, followeeId }) => {
      const found = byId.get(followerId);
      if (!found) return [];
      const follower = erased.has(followerId) ? { id: followerId, ...FORMER_MEMBER, profilePhoto: null } : found;
      return [{ ownerId: followeeId, data: () => ({ follower: toUserSummary(follower), followeeId }) }];
    }),
  );
}
