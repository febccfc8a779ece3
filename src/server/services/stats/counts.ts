import { sql } from "drizzle-orm";
import type { Deps } from "../core/deps.ts";

/** Counts an event whose row does not stay to be counted later, on today's date (UTC), for `site` or an author. */
export async function countEvent(
  deps: Pick<Deps, "db">,
  scope: string,
  metric: "unsubscribed" | "subscribers_gained" | "subscribers_lost",
) {
  await deps.db.execute(sql`
    insert into stats_counts (day, scope, metric, n) values ((now() at time zone 'UTC')::date, ${scope}, ${metric}, 1)
    on conflict (scope, metric, day) do update set n = stats_counts.n + 1`);
}
