import { and, desc, eq } from "drizzle-orm";
import type { Report, ReportInput, ReportKind } from "#shared/schemas/moderation.ts";
import { reportInputSchema } from "#shared/schemas/moderation.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { reports } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { AuthUser } from "../auth/auth-user.ts";
import type { Deps } from "../deps.ts";
import { NOTHING_PUBLIC } from "../reads/tags.ts";
import { reasonOf } from "./rules.ts";
import { findTarget } from "./targets.ts";

export const NOTHING_TO_REPORT = "There is nothing to report here: it may have been removed.";
export const ALREADY_REPORTED = "You have reported this already: a moderator will look at it.";

const toReport = (row: typeof reports.$inferSelect): Report => ({
  id: row.id,
  kind: row.targetKind as Report["kind"],
  targetId: row.targetId,
  reason: row.reason,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  resolvedAt: row.resolvedAt?.toISOString() ?? null,
});

/**
 * A reader reports what they can see: a post, a comment, a profile or a reply from the fediverse, naming a rule (or
 * spam, or other). One open report per reporter and item; nobody reports themself.
 */
export async function fileReport(deps: Pick<Deps, "db" | "changed">, reporter: AuthUser, input: ReportInput) {
  const report = reportInputSchema.parse(input);
  const target = await findTarget(deps.db, report.kind, report.id);
  if (!target?.isPublic) throw new HttpError(404, NOTHING_TO_REPORT);
  if (target.subjectId === reporter.id) throw new HttpError(400, "You cannot report yourself");
  const reason = await reasonOf(deps, report.rule);
  try {
    const [row] = await deps.db
      .insert(reports)
      .values({
        reporterId: reporter.id,
        targetKind: report.kind,
        targetId: report.id,
        subjectId: target.subjectId,
        ruleId: reason.ruleId,
        reason: reason.title,
        note: report.note,
        forward: report.kind === "remote-reply" && report.forward,
      })
      .returning();
    // Reports are read by moderators, uncached.
    deps.changed(NOTHING_PUBLIC);
    return toReport(row as typeof reports.$inferSelect);
  } catch (error) {
    if (isUniqueViolation(error, "reports_open_key")) throw new HttpError(409, ALREADY_REPORTED);
    throw error;
  }
}

/** A reader's own reports, newest first, with their outcome (never who decided); keyset-paged like every list. */
export async function myReports(
  deps: Pick<Deps, "db">,
  user: AuthUser,
  query: { limit: number; cursor?: string | undefined },
) {
  const rows = await deps.db
    .select({ report: reports, cursorAt: cursorKey(reports.createdAt) })
    .from(reports)
    .where(and(eq(reports.reporterId, user.id), afterCursor(reports.createdAt, reports.id, query.cursor)))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(query.limit + 1);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.report.id]);
  return { items: page.items.map((row) => toReport(row.report)), nextCursor: page.nextCursor };
}

/** What its author is shown beside an item the filter holds. */
export const WAITING_FOR_REVIEW = "Waiting for review";

/**
 * Puts an item the filter held into the moderators' queue, as a report from nobody naming the words it matched; a
 * moderator's "restore" publishes it.
 */
export async function queueHeld(
  deps: Pick<Deps, "db">,
  target: { kind: ReportKind; id: string; subjectId: string | null },
  terms: string[],
) {
  await deps.db.insert(reports).values({
    reporterId: null,
    targetKind: target.kind,
    targetId: target.id,
    subjectId: target.subjectId,
    reason: "Held by the filter",
    note: `Matched: ${terms.join(", ")}`.slice(0, 1000),
  });
}
