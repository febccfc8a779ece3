import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { QueueItem, ReportKind, ReportOrigin } from "#shared/schemas/moderation.ts";
import { REPORT_KINDS } from "#shared/schemas/moderation.ts";
import { moderationActions, moderationItems, reports } from "../../db/schema.ts";
import { cursorKey, cursorTime, decodeCursor, encodeCursor } from "../../infra/cursor.ts";
import type { Deps } from "../core/deps.ts";
import { findTarget } from "./targets.ts";

const HISTORY = 5;
/** The reports an item's decision closes and whose reasons it shows, newest first. */
const REPORT_IDS = 100;
const NOTES = 5;
const queueCursor = z.tuple([cursorTime, z.enum(REPORT_KINDS), z.uuid()]);

/**
 * The moderation queue: reports grouped per item, the longest waiting first, each with the item in context, how
 * many reported it and why, their notes (not their names), and what was done about its author before.
 */
export async function listQueue(deps: Pick<Deps, "db">, query: QueueQuery) {
  const after = query.cursor ? decodeCursor(query.cursor, queueCursor) : null;
  const groups = query.status === "open" ? await openItems(deps, query, after) : await closedItems(deps, query, after);
  const page = groups.slice(0, query.limit);
  const described = await describeAll(deps, query.status, page);
  const last = page.at(-1);
  const nextCursor = groups.length > query.limit && last ? encodeCursor([last.first, last.kind, last.id]) : null;
  return { items: described, nextCursor };
}

type Cursor = [string, string, string] | null;
type QueueQuery = {
  status: "open" | "dismissed" | "actioned";
  kind?: ReportKind | undefined;
  rule?: string | undefined;
  origin?: ReportOrigin | undefined;
  limit: number;
  cursor?: string | undefined;
};

/** The reports a filter of the queue keeps, as a condition on `reports`: their rule, and where they came from. */
function reportFilter(query: Pick<QueueQuery, "rule" | "origin">) {
  const rule =
    query.rule === "spam" || query.rule === "other"
      ? and(isNull(reports.ruleId), eq(reports.reason, query.rule === "spam" ? "Spam" : "Other"))
      : query.rule
        ? eq(reports.ruleId, query.rule)
        : undefined;
  const origin =
    query.origin === "remote"
      ? isNotNull(reports.remoteReporter)
      : query.origin === "local"
        ? isNull(reports.remoteReporter)
        : undefined;
  return rule || origin ? and(rule, origin) : undefined;
}

/** Open items from the queue's own index (moderation_items), however many reports there are. */
async function openItems(deps: Pick<Deps, "db">, query: QueueQuery, after: Cursor) {
  const filter = reportFilter(query);
  const items = await deps.db
    .select({
      kind: moderationItems.targetKind,
      id: moderationItems.targetId,
      first: cursorKey(moderationItems.firstOpenAt),
      count: moderationItems.openReports,
    })
    .from(moderationItems)
    .where(
      and(
        sql`${moderationItems.openReports} > 0`,
        query.kind ? eq(moderationItems.targetKind, query.kind) : undefined,
        filter
          ? sql`exists (select 1 from ${reports} where ${reports.targetKind} = ${moderationItems.targetKind}
              and ${reports.targetId} = ${moderationItems.targetId} and ${reports.status} = 'open' and ${filter})`
          : undefined,
        after
          ? sql`(${moderationItems.firstOpenAt}, ${moderationItems.targetKind}, ${moderationItems.targetId}) > (${after[0]}::timestamptz, ${after[1]}, ${after[2]}::uuid)`
          : undefined,
      ),
    )
    .orderBy(asc(moderationItems.firstOpenAt), asc(moderationItems.targetKind), asc(moderationItems.targetId))
    .limit(query.limit + 1);
  return items;
}

/** Dismissed or acted-on reports, grouped per item. */
function closedItems(deps: Pick<Deps, "db">, query: QueueQuery, after: Cursor) {
  const first = sql<string>`min(${reports.createdAt})`;
  return deps.db
    .select({
      kind: reports.targetKind,
      id: reports.targetId,
      first: sql<string>`to_char(${first} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      count: sql<number>`count(*)::int`,
    })
    .from(reports)
    .where(
      and(
        eq(reports.status, query.status),
        query.kind ? eq(reports.targetKind, query.kind) : undefined,
        reportFilter(query),
      ),
    )
    .groupBy(reports.targetKind, reports.targetId)
    .having(
      after
        ? sql`(${first}, ${reports.targetKind}, ${reports.targetId}::text) > (${after[0]}::timestamptz, ${after[1]}, ${after[2]})`
        : undefined,
    )
    .orderBy(asc(first), asc(reports.targetKind), asc(reports.targetId))
    .limit(query.limit + 1);
}

type Group = { kind: string; id: string; first: string; count: number };

/**
 * Each item of a page in context, in a few queries for the whole page: the item (one lookup each), its newest reports
 * (their ids, reasons and notes), and the earlier decisions about each author.
 */
async function describeAll(deps: Pick<Deps, "db">, status: string, page: Group[]): Promise<QueueItem[]> {
  if (page.length === 0) return [];
  const keys = sql.join(
    page.map((group) => sql`(${group.kind}, ${group.id}::uuid)`),
    sql`, `,
  );
  const [targets, shown] = await Promise.all([
    Promise.all(page.map((group) => findTarget(deps.db, group.kind as ReportKind, group.id))),
    deps.db.execute(sql`
      select target_kind, target_id, id, reason, rule_id, note from (
        select r.*, row_number() over (partition by target_kind, target_id order by created_at desc) as n
        from ${reports} r where status = ${status} and (target_kind, target_id) in (${keys})) newest
      where n <= ${REPORT_IDS}`),
  ]);
  type Shown = {
    target_kind: string;
    target_id: string;
    id: string;
    reason: string;
    rule_id: string | null;
    note: string;
  };
  const reportsOf = new Map<string, Shown[]>();
  for (const row of (shown as unknown as { rows: Shown[] }).rows) {
    const key = `${row.target_kind}:${row.target_id}`;
    reportsOf.set(key, [...(reportsOf.get(key) ?? []), row]);
  }
  const subjects = [...new Set(targets.flatMap((target) => (target?.subjectId ? [target.subjectId] : [])))];
  type Decision = { subject_id: string; action: string; rule: string; at: string };
  const history =
    subjects.length === 0
      ? []
      : (
          (await deps.db.execute(sql`
            select subject_id, action, rule, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
            from (
              select a.*, row_number() over (partition by subject_id order by created_at desc) as n
              from ${moderationActions} a
              where subject_id in (${sql.join(
                subjects.map((id) => sql`${id}::uuid`),
                sql`, `,
              )})) newest
            where n <= ${HISTORY}
            order by at desc`)) as unknown as { rows: Decision[] }
        ).rows;
  return page.flatMap((group, index): QueueItem[] => {
    const target = targets[index];
    if (!target) return [];
    const rows = reportsOf.get(`${group.kind}:${group.id}`) ?? [];
    const reasons = new Map<string, { rule: string | null; count: number }>();
    for (const row of rows) {
      reasons.set(row.reason, { rule: row.rule_id, count: (reasons.get(row.reason)?.count ?? 0) + 1 });
    }
    return [
      {
        target: { kind: target.kind, id: group.id },
        state: target.state,
        preview: target.preview,
        reportsCount: group.count,
        reasons: [...reasons]
          .map(([reason, { rule, count }]) => ({ reason, rule, count }))
          .sort((a, b) => b.count - a.count),
        notes: [...new Set(rows.map((row) => row.note).filter(Boolean))].slice(0, NOTES),
        firstReportedAt: group.first,
        reportIds: rows.map((row) => row.id),
        history: history
          .filter((entry) => entry.subject_id === target.subjectId)
          .map((entry) => ({ action: entry.action, rule: entry.rule, at: entry.at })),
      },
    ];
  });
}
