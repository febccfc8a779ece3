import { keepPreviousData, skipToken, useQuery } from "@tanstack/react-query";
import { type Interval, statsSchema } from "#shared/schemas/stats.ts";
import { api, apiText } from "../../../lib/api-client.ts";
import { saveFile } from "../../../lib/download.ts";
import { queryKeys } from "../../../lib/query-keys.ts";

/** Whose numbers a screen shows. */
export type StatsTarget = { kind: "author" } | { kind: "post"; id: string } | { kind: "site" };

/** A period as the API takes it: `from` and `to` as dates (`to` included) or left to the server (the last 30 days). */
export interface Period {
  from?: string;
  to?: string;
  interval: Interval;
}

const pathOf = (target: StatsTarget) =>
  target.kind === "post" ? `/api/stats/posts/${target.id}` : `/api/stats/${target.kind}`;

const queryOf = (period: Period) => {
  const params = new URLSearchParams({ interval: period.interval });
  if (period.from) params.set("from", period.from);
  if (period.to) params.set("to", period.to);
  return params.toString();
};

/** The numbers of a period; the last period's stay on screen while the next one loads. */
export const useStats = (target: StatsTarget, period: Period) =>
  useQuery({
    queryKey: queryKeys.stats.of(pathOf(target), period.from ?? "", period.to ?? "", period.interval),
    queryFn: () => api(`${pathOf(target)}?${queryOf(period)}`, statsSchema),
    placeholderData: keepPreviousData,
  });

/** The same numbers as a CSV file. */
export async function downloadStats(target: StatsTarget, period: Period) {
  const name = target.kind === "site" ? "site-stats" : target.kind === "post" ? "post-stats" : "stats";
  saveFile(`${name}.csv`, await apiText(`${pathOf(target)}.csv?${queryOf(period)}`));
}

/** The signed-in author's readers of the last minutes, as the event stream last told (notifications' stream). */
export const useLiveReadingNow = () =>
  useQuery({ queryKey: queryKeys.stats.readingNow(), queryFn: skipToken }).data as { count: number } | undefined;
