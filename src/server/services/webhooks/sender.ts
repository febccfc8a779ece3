import { performance } from "node:perf_hooks";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users, webhookDeliveries, webhookEndpoints } from "../../db/schema.ts";
import { guardedRequest } from "../../infra/delivery-guard.ts";
import { wakeable } from "../../infra/periodic.ts";
import type { Deps } from "../core/deps.ts";
import { serverSecret } from "./endpoints.ts";
import { disabledMail } from "./mails.ts";
import { openSecret, signature } from "./secrets.ts";

/** After the first attempt (at once), each retry waits this long after the one before: 8 attempts in all. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];
const TIMEOUT_MS = 10_000;
/** A claimed delivery is this instance's that long; one that dies mid-send leaves it to another after. */
const LEASE_MS = 60_000;
/** An endpoint that has failed without a success this long is disabled and its owner told. */
export const FAILING_FOR_MS = 5 * 24 * 3600_000;
/** How often the sender looks for endpoints failing that long, whether or not anything is sent to them now. */
const SWEEP_EVERY_MS = 60_000;
/** Deliveries claimed and sent together (one batch at a time per instance). */
const BATCH = 10;
const ERROR_CHARS = 300;

interface Claimed {
  id: string;
  attempts: number;
  endpoint_id: string;
  event_id: string;
  url: string;
  secret: string;
  type: string;
  data: unknown;
  created_at: string | Date;
}

/**
 * Claims up to `n` due deliveries of endpoints neither paused nor disabled, leased to this instance (rows another
 * instance holds are skipped), with what sending them needs.
 */
async function claim(db: Db, n: number, now: Date): Promise<Claimed[]> {
  const lease = new Date(now.getTime() + LEASE_MS);
  // The due rows are picked once (a CTE), then joined by id: as `id in (…)`, the pick would run again per row.
  const result = await db.execute(sql`
    with due as (
      select d2.id from webhook_deliveries d2 join webhook_endpoints w2 on w2.id = d2.endpoint_id
      where d2.status = 'pending' and d2.next_attempt_at <= ${now.toISOString()}::timestamptz
        and w2.paused_at is null and w2.disabled_at is null
      order by d2.next_attempt_at limit ${n}
      for update of d2 skip locked)
    update webhook_deliveries d set next_attempt_at = ${lease.toISOString()}::timestamptz
    from due, webhook_endpoints w, webhook_events e
    where d.id = due.id and d.next_attempt_at <= ${now.toISOString()}::timestamptz
      and w.id = d.endpoint_id and e.id = d.event_id
    returning d.id, d.attempts, d.endpoint_id, d.event_id, w.url, w.secret, e.type, e.data, e.created_at`);
  return (result as unknown as { rows: Claimed[] }).rows;
}

type Outcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/**
 * One attempt: the signed POST to a checked address through the delivery guard's connections, following no redirect,
 * within 10 s. undici's `request` rather than `fetch`: a thousand deliveries cost the readers' event loop far less.
 */
async function post(deps: Pick<Deps, "config">, row: Claimed, body: string): Promise<Outcome> {
  const id = `msg_${row.id}`;
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    // A secret that cannot be opened (JWT_SECRET changed) fails this attempt like any other failure.
    const secret = openSecret(serverSecret(deps.config), row.secret);
    const response = await guardedRequest(row.url, deps.config.webhooks.allowPrivateAddress, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Penchain-Webhooks/1",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature(secret, id, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // The answer's body is not kept: only its status counts.
    await response.body.dump().catch(() => undefined);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true, status };
    return { ok: false, status, error: `answered ${status}` };
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    return { ok: false, status: null, error: cause ?? (error as Error).message ?? String(error) };
  }
}

/** The endpoint is stopped: what waits for it fails, and its owner is mailed why. */
async function disable(deps: Pick<Deps, "db" | "config" | "mailer">, endpointId: string, reason: string, now: Date) {
  await deps.db.transaction(async (tx) => {
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ disabledAt: now, disabledReason: reason })
      .where(and(eq(webhookEndpoints.id, endpointId), isNull(webhookEndpoints.disabledAt)))
      .returning({ url: webhookEndpoints.url, userId: webhookEndpoints.userId });
    if (!endpoint) return;
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", lastError: `endpoint disabled: ${reason}` })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")));
    const [owner] = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(eq(users.id, endpoint.userId));
    if (owner)
      await deps.mailer.enqueue(
        { to: owner.email, ...disabledMail(owner.firstName, endpoint.url, reason, deps.config.publicUrl) },
        tx,
        false,
      );
  });
}

interface Sent {
  row: Claimed;
  outcome: Outcome;
  durationMs: number;
}

/** One attempt of one delivery, not yet written down; `bodies` holds each event's body, built once per batch. */
async function send(deps: Pick<Deps, "config">, row: Claimed, bodies: Map<string, string>): Promise<Sent> {
  let body = bodies.get(row.event_id);
  if (body === undefined) {
    body = JSON.stringify({ type: row.type, timestamp: new Date(row.created_at).toISOString(), data: row.data });
    bodies.set(row.event_id, body);
  }
  const started = performance.now();
  const outcome = await post(deps, row, body);
  return { row, outcome, durationMs: Math.round(performance.now() - started) };
}

/** A Postgres array literal of values that need no quoting (uuids, integers). */
const arrayOf = (values: (string | number)[]) => `{${values.join(",")}}`;

/**
 * A batch's deliveries written down in a few statements whatever their number (the database is shared with the
 * readers): the successes, the failures with their retry times, the failing endpoints' streaks; then a 410's
 * disabling, or that of an endpoint failing for 5 days.
 */
async function record(deps: Pick<Deps, "db" | "config" | "mailer" | "log">, batch: Sent[], now: Date) {
  const delivered = batch.filter((sent) => sent.outcome.ok);
  if (delivered.length > 0) {
    await deps.db.execute(sql`
      update webhook_deliveries d set status = 'delivered', attempts = d.attempts + 1, last_status = v.status,
        last_duration_ms = v.ms, last_error = null, delivered_at = now()
      from unnest(${arrayOf(delivered.map((sent) => sent.row.id))}::uuid[],
        ${arrayOf(delivered.map((sent) => sent.outcome.status ?? 0))}::int[],
        ${arrayOf(delivered.map((sent) => sent.durationMs))}::int[]) as v(id, status, ms)
      where d.id = v.id`);
    await deps.db.execute(sql`
      update webhook_endpoints set failing_since = null
      where id = any(${arrayOf([...new Set(delivered.map((sent) => sent.row.endpoint_id))])}::uuid[])
        and failing_since is not null`);
  }
  const failed = batch.filter((sent) => !sent.outcome.ok);
  if (failed.length === 0) return;
  // Every failure in one statement too: its retry's time (or failed for good, after the last), what was answered.
  const attempts = failed.map(({ row, outcome, durationMs }) => {
    const delay = RETRY_DELAYS_MS[row.attempts];
    return {
      id: row.id,
      status: delay === undefined ? "failed" : "pending",
      attempts: row.attempts + 1,
      answer: outcome.status,
      ms: durationMs,
      error: (outcome.ok ? "" : outcome.error).slice(0, ERROR_CHARS),
      next: new Date(now.getTime() + (delay ?? 0)).toISOString(),
    };
  });
  await deps.db.execute(sql`
    update webhook_deliveries d set status = v.status, attempts = v.attempts, last_status = v.answer,
      last_duration_ms = v.ms, last_error = v.error, next_attempt_at = v.next
    from jsonb_to_recordset(${JSON.stringify(attempts)}::jsonb)
      as v(id uuid, status text, attempts int, answer int, ms int, error text, next timestamptz)
    where d.id = v.id`);
  // 410 Gone: the receiver says the endpoint is no more (Standard Webhooks).
  const gone = new Set(failed.filter((sent) => sent.outcome.status === 410).map((sent) => sent.row.endpoint_id));
  for (const endpointId of gone) await disable(deps, endpointId, "it answered 410 Gone", now);
  const failing = [...new Set(failed.map((sent) => sent.row.endpoint_id))].filter((id) => !gone.has(id));
  if (failing.length === 0) return;
  const streaks = await deps.db.execute(sql`
    update webhook_endpoints set failing_since = coalesce(failing_since, ${now.toISOString()}::timestamptz)
    where id = any(${arrayOf(failing)}::uuid[])
    returning id, failing_since`);
  for (const endpoint of (streaks as unknown as { rows: { id: string; failing_since: string | Date }[] }).rows)
    if (now.getTime() - new Date(endpoint.failing_since).getTime() >= FAILING_FOR_MS)
      await disable(deps, endpoint.id, FAILED_FOR_DAYS, now);
}

const FAILED_FOR_DAYS = "it failed every delivery for 5 days";

/**
 * Disables every endpoint whose first failure since its last success is 5 days old, whether or not anything is being
 * sent to it now (its last retries may be long over), and mails each owner once.
 */
export async function disableLongFailing(deps: Pick<Deps, "db" | "config" | "mailer">, now = new Date()) {
  const failing = await deps.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        isNull(webhookEndpoints.disabledAt),
        // A paused endpoint is its owner's to resume (which clears its failing streak).
        isNull(webhookEndpoints.pausedAt),
        lte(webhookEndpoints.failingSince, new Date(now.getTime() - FAILING_FOR_MS)),
      ),
    );
  for (const endpoint of failing) await disable(deps, endpoint.id, FAILED_FOR_DAYS, now);
  return failing.length;
}

/**
 * Sends queued deliveries on every instance: woken by a route that queued one and every second, it claims a batch
 * of due rows (leased, so each goes out from one instance at a time), sends it at once and writes it down, until
 * none is due; once a minute it first disables the endpoints failing for 5 days. `now` is its clock (tests move it).
 * Batches keep the database's statements few, and a pause after each, as long as the batch kept the event loop (on
 * PGlite, the database too) busy, leaves the readers their share while a post goes out to many endpoints.
 */
export function createWebhookSender(
  deps: Pick<Deps, "db" | "config" | "mailer" | "log">,
  options: { everyMs?: number; now?: () => Date } = {},
) {
  const clock = options.now ?? (() => new Date());
  let sweptAt = Number.NEGATIVE_INFINITY;
  async function loop(stopping: () => boolean) {
    if (clock().getTime() - sweptAt >= SWEEP_EVERY_MS) {
      sweptAt = clock().getTime();
      await disableLongFailing(deps, clock());
    }
    while (!stopping()) {
      const batchStarted = performance.now();
      const loopBefore = performance.eventLoopUtilization();
      const rows = await claim(deps.db, BATCH, clock());
      if (rows.length === 0) return;
      let statementsMs = performance.now() - batchStarted;
      const bodies = new Map<string, string>();
      const sent = await Promise.all(rows.map((row) => send(deps, row, bodies)));
      const recording = performance.now();
      await record(deps, sent, clock());
      statementsMs += performance.now() - recording;
      // As long again for everyone else: the time the batch kept the event loop busy (PGlite's statements run on it
      // too), or a database of its own (PostgreSQL) busy, whichever is longer.
      const loopMs = (performance.now() - batchStarted) * performance.eventLoopUtilization(loopBefore).utilization;
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(statementsMs, loopMs), 1000)));
    }
  }
  return wakeable(loop, {
    everyMs: options.everyMs ?? 1000,
    onError: (error) => deps.log.error({ err: error }, "sending webhooks failed"),
  });
}
export type WebhookSender = ReturnType<typeof createWebhookSender>;
