import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import { APPEAL_DAYS, type Decision, type ModerationAction, type ReportKind } from "#shared/schemas/moderation.ts";
import { moderationActions, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { act, OWN_THINGS, refuseStaffSubject } from "./actions.ts";
import { checkAppealToken } from "./appeal-links.ts";
import { appealOutcomeMail } from "./mails.ts";
import { findTarget } from "./targets.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Decisions a person can appeal: the ones that took something from them. */
const APPEALABLE: ModerationAction[] = ["hide", "remove", "warn", "limit", "suspend"];
type Row = typeof moderationActions.$inferSelect;

function toDecision(row: Row, now = Date.now()): Decision {
  const status = row.appealOutcome ?? (row.appealText ? "waiting" : "none");
  return {
    id: row.id,
    action: row.action as ModerationAction,
    targetKind: row.targetKind as ReportKind,
    rule: row.rule,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
    appeal: {
      status: status as Decision["appeal"]["status"],
      text: row.appealText,
      open:
        !row.appealText &&
        APPEALABLE.includes(row.action as ModerationAction) &&
        now - row.createdAt.getTime() < APPEAL_DAYS * DAY_MS,
    },
  };
}

/** The decisions about the signed-in user, newest first. */
export async function myDecisions(deps: Pick<Deps, "db">, user: AuthUser) {
  const rows = await deps.db
    .select()
    .from(moderationActions)
    .where(eq(moderationActions.subjectId, user.id))
    .orderBy(desc(moderationActions.createdAt))
    .limit(50);
  return { decisions: rows.map((row) => toDecision(row)) };
}

/** The person a decision was about appeals it: once, within APPEAL_DAYS days, saying why. */
export async function appeal(
  deps: Pick<Deps, "db" | "changed">,
  user: AuthUser,
  input: { actionId: string; text: string },
) {
  const [row] = await deps.db.select().from(moderationActions).where(eq(moderationActions.id, input.actionId));
  if (!row || row.subjectId !== user.id) throw new HttpError(404, "There is no such decision about you");
  return appealRow(deps, row, input.text);
}

/** A decision reached by the link in its mail (a suspended account's, which cannot sign in). */
async function linkedDecision(deps: Pick<Deps, "db" | "config">, actionId: string, token: string) {
  checkAppealToken(deps.config, actionId, token);
  const [row] = await deps.db.select().from(moderationActions).where(eq(moderationActions.id, actionId));
  if (!row?.subjectId) throw new HttpError(404, "There is no such decision");
  return row;
}

export async function decisionOfLink(deps: Pick<Deps, "db" | "config">, actionId: string, token: string) {
  return toDecision(await linkedDecision(deps, actionId, token));
}

export async function appealByLink(
  deps: Pick<Deps, "db" | "config" | "changed">,
  input: { actionId: string; token: string; text: string },
) {
  return appealRow(deps, await linkedDecision(deps, input.actionId, input.token), input.text);
}

async function appealRow(deps: Pick<Deps, "db" | "changed">, row: Row, text: string) {
  if (row.appealText) throw new HttpError(409, "You have appealed this decision already");
  if (!toDecision(row).appeal.open) throw new HttpError(400, `A decision can be appealed within ${APPEAL_DAYS} days`);
  const [saved] = await deps.db
    .update(moderationActions)
    .set({ appealText: text, appealedAt: new Date() })
    .where(and(eq(moderationActions.id, row.id), isNull(moderationActions.appealText)))
    .returning();
  if (!saved) throw new HttpError(409, "You have appealed this decision already");
  deps.changed(NOTHING_PUBLIC);
  return toDecision(saved);
}

/** Appeals waiting for a moderator, oldest first, each with what it is about. */
export async function waitingAppeals(deps: Pick<Deps, "db">) {
  const rows = await deps.db
    .select()
    .from(moderationActions)
    .where(and(isNotNull(moderationActions.appealText), isNull(moderationActions.appealOutcome)))
    .orderBy(moderationActions.appealedAt)
    .limit(50);
  return {
    appeals: await Promise.all(
      rows.map(async (row) => {
        const target = await findTarget(deps.db, row.targetKind as ReportKind, row.targetId);
        return { ...toDecision(row), targetId: row.targetId, preview: target?.preview ?? null };
      }),
    ),
  };
}

/**
 * Another moderator (or an admin) decides an appeal: upheld, or reversed, which undoes what can be undone (a hidden
 * or removed item is restored, a suspension lifted). The person is mailed the outcome.
 */
const DECIDED = "This appeal has been decided already";

/** A reversed decision is undone where it can be: the item restored, the suspension or limit lifted. */
async function undo(
  deps: Pick<Deps, "db" | "config" | "mailer" | "log" | "bus" | "changed">,
  moderator: AuthUser,
  row: Row,
) {
  const target =
    (row.action === "suspend" || row.action === "limit") && row.subjectId
      ? { kind: "user" as const, id: row.subjectId }
      : { kind: row.targetKind as ReportKind, id: row.targetId };
  const item = await findTarget(deps.db, target.kind, target.id);
  if (item && item.state !== "visible")
    await act(deps, moderator, { target, action: "restore", rule: "other", note: "Reversed on appeal" });
}

/** Undoing failed: the appeal waits again for a decision. */
const release = (deps: Pick<Deps, "db">, row: Row) => async (error: unknown) => {
  await deps.db
    .update(moderationActions)
    .set({ appealOutcome: null, appealDecidedBy: null })
    .where(eq(moderationActions.id, row.id));
  throw error;
};

export async function decideAppeal(
  deps: Pick<Deps, "db" | "config" | "mailer" | "log" | "bus" | "changed">,
  moderator: AuthUser,
  actionId: string,
  outcome: "upheld" | "reversed",
) {
  const [row] = await deps.db.select().from(moderationActions).where(eq(moderationActions.id, actionId));
  if (!row?.appealText) throw new HttpError(404, "There is no appeal waiting here");
  if (row.appealOutcome) throw new HttpError(409, DECIDED);
  if (row.moderatorId === moderator.id)
    throw new HttpError(403, "Another moderator must decide an appeal of your decision");
  if (row.subjectId === moderator.id) throw new HttpError(403, OWN_THINGS);
  await refuseStaffSubject(deps.db, row.subjectId, moderator);
  // Claimed before anything is undone, so of two moderators deciding at once only one acts.
  const [claimed] = await deps.db
    .update(moderationActions)
    .set({ appealOutcome: outcome, appealDecidedBy: moderator.id })
    .where(and(eq(moderationActions.id, row.id), isNull(moderationActions.appealOutcome)))
    .returning({ id: moderationActions.id });
  if (!claimed) throw new HttpError(409, DECIDED);
  if (outcome === "reversed" && row.action !== "warn") await undo(deps, moderator, row).catch(release(deps, row));
  deps.changed(NOTHING_PUBLIC);
  if (row.subjectId) {
    const [subject] = await deps.db.select().from(users).where(eq(users.id, row.subjectId));
    if (subject)
      await deps.mailer.queue({
        to: subject.email,
        ...appealOutcomeMail({ firstName: subject.firstName, rule: row.rule, reversed: outcome === "reversed" }),
      });
  }
  return { outcome };
}
