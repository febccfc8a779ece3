import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { QueueItem, ReportKind } from "#shared/schemas/moderation.ts";
import { REPORT_KINDS } from "#shared/schemas/moderation.ts";
import { moderationActions, reports } from "../../db/schema.ts";
import { cursorTime, decodeCursor, encodeCursor } from "../../infra/cursor.ts";
import type { Deps } from "../deps.ts";
import { findTarget } from "./targets.ts";

const HISTORY = 5;
const NOTES = 5;
const queueCursor = z.tuple([cursorTime, z.enum(REPORT_KINDS), z.uuid()]);

/**
 * The moderation queue: reports grouped per item, the longest waiting first, each with the item in context, how
 * many reported it and why, their notes (not their names), and what was done about its author before.
 */
export async function listQueue(
  deps: Pick<Deps, "db">,
  query: {
    status: "open" | "dismissed" | "actioned";
    kind?: ReportKind | undefined;
    limit: number;
    cursor?: string | undefined;
  },
) {
  const after = query.cursor ? decodeCursor(query.cursor, queueCursor) : null;
  const first = sql<string>`min(${reports.createdAt})`;
  const groups = await deps.db
    .select({
      kind: reports.targetKind,
      id: reports.targetId,
      first: sql<string>`to_char(${first} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      count: sql<number>`count(*)::int`,
      reportIds: sql<string[]>`array_agg(${reports.id}::text order by ${reports.createdAt} desc)`,
    })
    .from(reports)
    .where(and(eq(reports.status, query.status), query.kind ? eq(reports.targetKind, query.kind) : undefined))
    .groupBy(reports.targetKind, reports.targetId)
    .having(
      after
        ? sql`(${first}, ${reports.targetKind}, ${reports.targetId}::text) > (${after[0]}::timestamptz, ${after[1]}, ${after[2]})`
        : undefined,
    )
    .orderBy(asc(first), asc(reports.targetKind), asc(reports.targetId))
    .limit(query.limit + 1);
  const page = groups.slice(0, query.limit);
  const items = await Promise.all(page.map((group) => describe(deps, group)));
  const last = page.at(-1);
  const nextCursor = groups.length > query.limit && last ? encodeCursor([last.first, last.kind, last.id]) : null;
  return { items: items.filter((item): item is QueueItem => item !== null), nextCursor };
}

async function describe(
  deps: Pick<Deps, "db">,
  group: { kind: string; id: string; first: string; count: number; reportIds: string[] },
): Promise<QueueItem | null> {
  const kind = group.kind as ReportKind;
  const target = await findTarget(deps.db, kind, group.id);
  if (!target) return null;
  const shown = group.reportIds.slice(0, 50);
  const [reasons, notes, history] = await Promise.all([
    deps.db
      .select({ reason: reports.reason, count: sql<number>`count(*)::int` })
      .from(reports)
      .where(inArray(reports.id, shown))
      .groupBy(reports.reason)
      .orderBy(desc(sql`count(*)`)),
    deps.db
      .selectDistinct({ note: reports.note })
      .from(reports)
      .where(and(inArray(reports.id, shown), sql`${reports.note} <> ''`))
      .limit(NOTES),
    target.subjectId
      ? deps.db
          .select({ action: moderationActions.action, rule: moderationActions.rule, at: moderationActions.createdAt })
          .from(moderationActions)
          .where(eq(moderationActions.subjectId, target.subjectId))
          .orderBy(desc(moderationActions.createdAt))
          .limit(HISTORY)
      : Promise.resolve([]),
  ]);
  return {
    target: { kind, id: group.id },
    state: target.state,
    preview: target.preview,
    reportsCount: group.count,
    reasons,
    notes: notes.map((row) => row.note),
    firstReportedAt: group.first,
    reportIds: group.reportIds,
    history: history.map((row) => ({ action: row.action, rule: row.rule, at: row.at.toISOString() })),
  };
}
