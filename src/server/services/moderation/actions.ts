import { and, eq, inArray } from "drizzle-orm";
import { type ActionInput, actionInputSchema, type ModerationAction } from "#shared/schemas/moderation.ts";
import type { Db } from "../../db/client.ts";
import { comments, moderationActions, posts, remoteReplies, reports, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { queuePostActivity } from "../core/federation-queue.ts";
import { announceSessionsEnded } from "../core/sessions.ts";
import { cacheTags, EVERYTHING, NOTHING_PUBLIC } from "../core/tags.ts";
import { announceNewPost, fanOutNewPost } from "../notifications/fan-out.ts";
import { notify } from "../notifications/notify.ts";
import { commentsGone, commentsShown } from "../webhooks/comment-events.ts";
import { recordEvent } from "../webhooks/events.ts";
import { postActivityEvent } from "../webhooks/post-events.ts";
import { appealPath } from "./appeal-links.ts";
import { appendLog } from "./log.ts";
import { actionMail, outcomeMail } from "./mails.ts";
import { reasonOf } from "./rules.ts";
import { LIMITED, lift, limit, suspend, unlimit } from "./suspension.ts";
import { findTarget, type Target } from "./targets.ts";

const STATE_AFTER = { hide: "hidden", remove: "removed", restore: "visible" } as const;
type StateAction = keyof typeof STATE_AFTER;
const changesState = (action: ModerationAction): action is StateAction => action in STATE_AFTER;
export const OWN_THINGS = "Another moderator must decide about your own things";

/** Mastodon's rule: what is about a moderator or an admin (their account, posts, comments) is for an admin to decide. */
export async function refuseStaffSubject(db: Db, subjectId: string | null, moderator: AuthUser) {
  if (!subjectId || moderator.isAdmin) return;
  const [subject] = await db
    .select({ isAdmin: users.isAdmin, isModerator: users.isModerator })
    .from(users)
    .where(eq(users.id, subjectId));
  if (subject?.isAdmin || subject?.isModerator)
    throw new HttpError(403, "Only an admin can decide about a moderator's or an admin's things");
}

/** The table whose `moderation` column an item's state lives in. */
function stateTable(kind: Target["kind"]) {
  if (kind === "post") return posts;
  if (kind === "comment") return comments;
  if (kind === "remote-reply") return remoteReplies;
  return null;
}

/** What public reads showed the item: they drop it (or show it again) at once, here and on every instance. */
function shownIn(target: Target) {
  if (target.kind === "post") return [cacheTags.posts, cacheTags.post(target.id)];
  if (target.kind === "comment" && target.postId)
    return [cacheTags.comments(target.postId), cacheTags.counts(target.postId)];
  // Replies from the fediverse and profiles are read uncached.
  return NOTHING_PUBLIC;
}

/** "restore" on a profile lifts its owner's suspension or limit. */
const lifts = (target: Target, action: ModerationAction) => target.kind === "user" && action === "restore";
/** Limit and suspend are about a person, whatever item of theirs was reported. */
const onAccount = (action: ModerationAction) => action === "suspend" || action === "limit";

function refuseUnfit(target: Target, action: ModerationAction, moderator: AuthUser) {
  // Dismissing is a decision too: nobody decides about their own things.
  if (target.subjectId === moderator.id) throw new HttpError(403, OWN_THINGS);
  if (changesState(action) && !stateTable(target.kind) && !lifts(target, action))
    throw new HttpError(400, "A profile cannot be hidden or removed: warn or suspend its owner instead");
  if (onAccount(action) && !target.subjectId)
    throw new HttpError(400, `A reply from the fediverse has no account here to ${action}: block its domain instead`);
  if (action === "warn" && !target.subjectId)
    throw new HttpError(400, "A reply from the fediverse has no one to warn here");
  if (action === "restore" && target.state === "visible") throw new HttpError(400, "This is not hidden or removed");
  if ((action === "hide" || action === "remove") && target.state === STATE_AFTER[action])
    throw new HttpError(409, `This is already ${STATE_AFTER[action]}`);
}

/**
 * A moderator's decision on one item, naming a rule, in one transaction: the item's new state (which takes it out of
 * every public read: lists, pages, feeds, the sitemap, search, and the fediverse for a post), the record of the
 * action, its reports closed, and the public log's entry. Then the person it was about is mailed the rule and the
 * note, and each reporter the outcome (never who decided).
 */
export async function act(
  deps: Pick<Deps, "db" | "config" | "mailer" | "log" | "bus" | "changed">,
  moderator: AuthUser,
  input: ActionInput,
) {
  const { target: wanted, action, rule, note, reportIds } = actionInputSchema.parse(input);
  const target = await findTarget(deps.db, wanted.kind, wanted.id);
  if (!target) throw new HttpError(404, "Nothing to act on here: it may have been deleted.");
  refuseUnfit(target, action, moderator);
  await refuseStaffSubject(deps.db, target.subjectId, moderator);
  const reason = await reasonOf(deps, rule);
  const { resolved, entry, fannedOut, actionId } = await deps.db.transaction(async (tx) => {
    let fannedOut: Awaited<ReturnType<typeof fanOutNewPost>> | null = null;
    const table = stateTable(target.kind);
    if (onAccount(action) && target.subjectId) {
      const [subject] = await tx
        .select({ suspendedAt: users.suspendedAt, limitedAt: users.limitedAt, isAdmin: users.isAdmin })
        .from(users)
        .where(eq(users.id, target.subjectId));
      if (subject?.isAdmin)
        throw new HttpError(403, `An admin cannot be ${action === "limit" ? "limited" : "suspended"}`);
      if (subject?.suspendedAt) throw new HttpError(409, "This account is suspended already");
      if (action === "limit" && subject?.limitedAt) throw new HttpError(409, "This account is limited already");
      if (action === "limit") await limit(tx, deps, target.subjectId);
      else await suspend(tx, deps, target.subjectId);
    }
    if (lifts(target, action)) {
      if (target.state === "hidden") await lift(tx, deps, target.id);
      else await unlimit(tx, deps, target.id);
    }
    if (table && changesState(action)) {
      // A limited author's post, let through, stays limited: reachable at its address, listed nowhere.
      const state = action === "restore" && (await authorLimited(tx, target)) ? "limited" : STATE_AFTER[action];
      await tx
        .update(table)
        .set({
          moderation: state,
          moderationReason:
            state === "visible" ? null : state === "limited" ? LIMITED : moderationReason(reason.title, note),
        })
        .where(eq(table.id, target.id));
      if (target.kind === "post" && state !== "limited") await federatePost(tx, deps, target, action);
      // A comment let through (held, hidden or removed before) is shown on its post now; one hidden leaves it.
      if (target.kind === "comment" && target.postId) {
        if (state === "visible") await commentsShown(tx, [target.id]);
        else if (target.state === "visible") await commentsGone(tx, [{ id: target.id, postId: target.postId }]);
      }
      // A post the filter held reaches its author's followers once a moderator lets it through.
      if (target.kind === "post" && target.state === "held" && state === "visible")
        fannedOut = await fanOutNewPost({ db: tx, config: deps.config }, target.id);
    }
    let actionId: string | null = null;
    if (action !== "dismiss") {
      const [recorded] = await tx
        .insert(moderationActions)
        .values({
          moderatorId: moderator.id,
          targetKind: target.kind,
          targetId: target.id,
          subjectId: target.subjectId,
          action,
          ruleId: reason.ruleId,
          rule: reason.title,
          note,
        })
        .returning({ id: moderationActions.id });
      actionId = recorded?.id ?? null;
    }
    const resolved = await tx
      .update(reports)
      .set({ status: action === "dismiss" ? "dismissed" : "actioned", resolvedAt: new Date() })
      .where(
        and(
          eq(reports.targetKind, target.kind),
          eq(reports.targetId, target.id),
          eq(reports.status, "open"),
          reportIds ? inArray(reports.id, reportIds) : undefined,
        ),
      )
      .returning({ reporterId: reports.reporterId });
    const entry = await appendLog(tx, { targetKind: target.kind, action, rule: reason.title });
    await recordEvent(tx, {
      type: "moderation.action",
      ownerId: null,
      data: () => ({ id: actionId, action, targetKind: target.kind, targetId: target.id, rule: reason.title }),
    });
    return { resolved, entry, fannedOut, actionId };
  });
  // A suspension (or its lifting) changes whatever shows its author's posts and comments: it is rare.
  if (onAccount(action) || lifts(target, action)) deps.changed(EVERYTHING);
  else deps.changed(changesState(action) ? shownIn(target) : NOTHING_PUBLIC);
  if (action === "suspend" && target.subjectId) announceSessionsEnded(deps.bus, target.subjectId);
  if (fannedOut) announceNewPost(deps, target.id, fannedOut);
  await tell(deps, { target, action, actionId, rule: reason.title, note }, resolved);
  return { action, reportsResolved: resolved.length, logSeq: entry.seq };
}

async function authorLimited(tx: Db, target: Target) {
  if (target.kind !== "post" || !target.subjectId) return false;
  const [author] = await tx.select({ limitedAt: users.limitedAt }).from(users).where(eq(users.id, target.subjectId));
  return Boolean(author?.limitedAt);
}

/** What its author is shown beside a hidden or removed item. */
const moderationReason = (rule: string, note: string) => (note ? `${rule}: ${note}` : rule);

/** A post leaves the fediverse when it leaves the site (a `Delete`), and comes back when restored. */
async function federatePost(tx: Db, deps: Pick<Deps, "config">, target: Target, action: StateAction) {
  if (!target.subjectId) return;
  const [post] = await tx.select({ status: posts.status }).from(posts).where(eq(posts.id, target.id));
  if (post?.status !== "published") return;
  const wasPublic = target.state === "visible";
  if (action === "restore" || wasPublic) {
    await queuePostActivity(
      { db: tx, config: deps.config },
      { action: action === "restore" ? "create" : "delete", postId: target.id, authorId: target.subjectId },
    );
    await postActivityEvent(tx, action === "restore" ? "create" : "delete", target.id, target.subjectId);
  }
}

/**
 * The person a decision was about is mailed it and told in the app (the notification opens their decisions, where
 * they may appeal); a suspended account, which cannot sign in, gets a link that appeals without signing in. Each
 * reporter is mailed the outcome.
 */
async function tell(
  deps: Pick<Deps, "db" | "config" | "mailer" | "bus" | "log">,
  decision: { target: Target; action: ModerationAction; actionId: string | null; rule: string; note: string },
  resolved: { reporterId: string | null }[],
) {
  const { target, action, actionId, rule, note } = decision;
  const link = `${deps.config.publicUrl}${target.preview.path}`;
  const item = onAccount(action) ? "Your account" : target.kind === "user" ? "Your profile" : target.preview.title;
  if (actionId && action !== "dismiss" && target.subjectId) {
    const [subject] = await deps.db.select().from(users).where(eq(users.id, target.subjectId));
    if (subject)
      await deps.mailer.queue({
        to: subject.email,
        ...actionMail({
          firstName: subject.firstName,
          action,
          item,
          rule,
          note,
          link,
          appealLink:
            action === "restore"
              ? undefined
              : action === "suspend"
                ? `${deps.config.publicUrl}${appealPath(deps.config, actionId)}`
                : `${deps.config.publicUrl}/decisions`,
        }),
      });
    await notify(deps, {
      kind: "moderation",
      recipientId: target.subjectId,
      actorId: null,
      postId: target.kind === "post" ? target.id : (target.postId ?? null),
      group: actionId,
    });
  }
  const reporterIds = [...new Set(resolved.flatMap((report) => (report.reporterId ? [report.reporterId] : [])))];
  if (reporterIds.length === 0) return;
  const reporters = await deps.db.select().from(users).where(inArray(users.id, reporterIds));
  for (const reporter of reporters) {
    await deps.mailer.queue({
      to: reporter.email,
      ...outcomeMail({ firstName: reporter.firstName, item: target.preview.title, actioned: action !== "dismiss" }),
    });
  }
}
