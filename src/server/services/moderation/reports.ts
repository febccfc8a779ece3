import { and, count, desc, eq, gt, sql } from "drizzle-orm";
import type { Report, ReportInput, ReportKind } from "#shared/schemas/moderation.ts";
import { reportInputSchema } from "#shared/schemas/moderation.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { reports } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { queueFlagForward } from "../core/federation-queue.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { recordEvent } from "../webhooks/events.ts";
import type { Verdict } from "./filter.ts";
import { reasonOf } from "./rules.ts";
import { findTarget, type Target } from "./targets.ts";

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

/** The site's admins hear of every report in the queue: a reader's, another server's, the filter's. */
const reportEvent = (tx: Parameters<typeof recordEvent>[0], row: typeof reports.$inferSelect) =>
  recordEvent(tx, {
    type: "report.created",
    ownerId: null,
    // Moderators' business: who reported stays out of it.
    data: () => ({ id: row.id, targetKind: row.targetKind, targetId: row.targetId, reason: row.reason }),
  });

/**
 * A reader reports what they can see: a post, a comment, a profile or a reply from the fediverse, naming a rule (or
 * spam, or other). One open report per reporter and item; nobody reports themself.
 */
export async function fileReport(
  deps: Pick<Deps, "db" | "config" | "changed">,
  reporter: AuthUser,
  input: ReportInput,
) {
  const report = reportInputSchema.parse(input);
  const target = await findTarget(deps.db, report.kind, report.id);
  if (!target?.isPublic) throw new HttpError(404, NOTHING_TO_REPORT);
  if (target.subjectId === reporter.id) throw new HttpError(400, "You cannot report yourself");
  const reason = await reasonOf(deps, report.rule);
  try {
    const forward = report.kind === "remote-reply" && report.forward;
    const row = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(reports)
        .values({
          reporterId: reporter.id,
          targetKind: report.kind,
          targetId: report.id,
          subjectId: target.subjectId,
          ruleId: reason.ruleId,
          reason: reason.title,
          note: report.note,
          forward,
        })
        .returning();
      if (row) await reportEvent(tx, row);
      // The reply's own server hears of it too, from the site and without the reader's name.
      if (forward) {
        const content = report.note ? `${reason.title}: ${report.note}` : reason.title;
        await queueFlagForward({ db: tx, config: deps.config }, { replyId: report.id, content });
      }
      return row;
    });
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

/** How many reports one registered domain (all its hosts together) may file a day. */
export const REMOTE_REPORTS_PER_DAY = 20;

/**
 * A report from another server (a `Flag`), about our posts or users: it joins the queue without the remote
 * reporter's name. `domain` is the server's registered domain (`federation/registrable-domain.ts`), so its hosts
 * (`a.evil.example`, `b.evil.example`…) count as one: once per domain and item while it is open, and at most
 * `REMOTE_REPORTS_PER_DAY` a day. Only the domain is kept, never shown.
 */
export async function receiveRemoteReport(
  deps: Pick<Deps, "db">,
  report: { domain: string; targets: { kind: "post" | "user"; id: string }[]; note: string },
) {
  const found: Target[] = [];
  for (const wanted of report.targets.slice(0, 10)) {
    const target = await findTarget(deps.db, wanted.kind, wanted.id);
    if (target?.isPublic) found.push(target);
  }
  if (found.length === 0) return 0;
  return deps.db.transaction(async (tx) => {
    // One domain's reports are counted and filed in turn, so reports arriving together cannot pass the cap.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`penchain:remote-reports:${report.domain}`}))`);
    const [today] = await tx
      .select({ n: count() })
      .from(reports)
      .where(and(eq(reports.remoteReporter, report.domain), gt(reports.createdAt, sql`now() - interval '1 day'`)));
    let room = REMOTE_REPORTS_PER_DAY - (today?.n ?? 0);
    let filed = 0;
    for (const target of found) {
      if (room <= 0) break;
      const [open] = await tx
        .select({ id: reports.id })
        .from(reports)
        .where(
          and(
            eq(reports.remoteReporter, report.domain),
            eq(reports.targetKind, target.kind),
            eq(reports.targetId, target.id),
            eq(reports.status, "open"),
          ),
        )
        .limit(1);
      if (open) continue;
      const [row] = await tx
        .insert(reports)
        .values({
          reporterId: null,
          remoteReporter: report.domain,
          targetKind: target.kind,
          targetId: target.id,
          subjectId: target.subjectId,
          reason: "A report from another server",
          note: report.note.slice(0, 1000),
        })
        .returning();
      if (row) await reportEvent(tx, row);
      filed++;
      room--;
    }
    return filed;
  });
}

/** What its author is shown beside an item the filter holds. */
export const WAITING_FOR_REVIEW = "Waiting for review";

/**
 * The one rule of what waits for a moderator: text the filter holds, or anything a limited author writes. An edit and
 * a remote reply pass no author (a limit holds what its author writes anew).
 */
export const isHeldForReview = (verdict: Pick<Verdict, "action">, author: { limitedAt: Date | null } | null) =>
  verdict.action === "hold" || (author !== null && author.limitedAt !== null);

/** The columns of a post or a remote reply held for review. */
export const HELD_FOR_REVIEW = { moderation: "held", moderationReason: WAITING_FOR_REVIEW } as const;

/**
 * Puts an item the filter held into the moderators' queue, as a report from nobody naming the words it matched; a
 * moderator's "restore" publishes it.
 */
export async function queueHeld(
  deps: Pick<Deps, "db">,
  target: { kind: ReportKind; id: string; subjectId: string | null },
  why: HeldFor,
) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reports)
      .values({
        reporterId: null,
        targetKind: target.kind,
        targetId: target.id,
        subjectId: target.subjectId,
        reason: why.reason,
        note: why.note.slice(0, 1000),
      })
      .returning();
    if (row) await reportEvent(tx, row);
  });
}

/** Why something waits in the queue: what the filter matched, or its author's limit. */
export type HeldFor = { reason: string; note: string };
export const heldFor = (author: { limitedAt: Date | null } | null, terms: string[]): HeldFor =>
  terms.length > 0 || !author?.limitedAt
    ? { reason: "Held by the filter", note: `Matched: ${terms.join(", ")}` }
    : { reason: "Written by a limited account", note: "A moderator limited its author: what they write waits" };
