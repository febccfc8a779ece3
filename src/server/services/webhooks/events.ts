import { type SQL, sql } from "drizzle-orm";
import { MAX_WEBHOOK_BODY_BYTES, type WebhookEventType } from "#shared/schemas/webhooks.ts";
import type { Db } from "../../db/client.ts";
import { webhookEndpoints } from "../../db/schema.ts";

type Tx = Pick<Db, "execute" | "select">;

/**
 * The endpoints an event goes to: its owner's that asked for its type, and every site-wide one of an admin that did
 * (an admin follows the site), none paused or disabled. `owner` null: the site's own event, for admins only.
 */
const targetsOf = (type: WebhookEventType, owner: SQL) => sql`
  select w.id from ${webhookEndpoints} w
  where w.events @> array[${type}]::text[] and w.paused_at is null and w.disabled_at is null
    and (w.user_id = ${owner} or (w.site_wide and exists (
      select 1 from users u where u.id = w.user_id and u.is_admin and not u.is_blocked and u.suspended_at is null)))`;

const targets = (type: WebhookEventType, ownerId: string | null) => targetsOf(type, sql`${ownerId}::uuid`);

/** Whether anyone would receive such an event: most writes on most sites pay one indexed look and nothing else. */
export async function anyoneListens(tx: Tx, type: WebhookEventType, ownerId: string | null): Promise<boolean> {
  const result = await tx.execute(sql`select exists (${targets(type, ownerId)}) as "listening"`);
  return Boolean((result as unknown as { rows: { listening: boolean }[] }).rows[0]?.listening);
}

/** `anyoneListens` inside a statement of the caller's, for an owner the statement names (`owner`, a uuid). */
export const listensIn = (type: WebhookEventType, owner: SQL) => sql`exists (${targetsOf(type, owner)})`;

/**
 * Queues an event in the caller's transaction (so it is sent only for a change that committed, and never lost) and
 * one delivery per endpoint, in one statement; the sender (sender.ts) takes them from there. `data` is built only
 * when someone listens, and must be what every receiver may read through the API.
 */
export async function recordEvent(
  tx: Tx,
  event: { type: WebhookEventType; ownerId: string | null; data: () => Promise<unknown> | unknown },
) {
  if (!(await anyoneListens(tx, event.type, event.ownerId))) return;
  let data = await event.data();
  // A body over the cap carries the object's id only; the receiver reads the rest through the API.
  if (Buffer.byteLength(JSON.stringify(data)) > MAX_WEBHOOK_BODY_BYTES - 1024) {
    const id = (data as { id?: unknown }).id;
    data = { id: typeof id === "string" ? id : null, truncated: true };
  }
  await tx.execute(sql`
    with targets as (${targets(event.type, event.ownerId)}),
    event as (
      insert into webhook_events (type, owner_id, data)
      select ${event.type}, ${event.ownerId}::uuid, ${JSON.stringify(data)}::jsonb where exists (select 1 from targets)
      returning id)
    insert into webhook_deliveries (event_id, endpoint_id)
    select event.id, targets.id from event, targets
    on conflict do nothing`);
}

/**
 * Many events of one type at once (a suspension's comments, an erased account's follows): whether anyone listens is
 * asked once per owner, so a change of thousands of rows that nobody follows costs one look per owner.
 */
export async function recordEvents(
  tx: Tx,
  type: WebhookEventType,
  events: { ownerId: string | null; data: () => Promise<unknown> | unknown }[],
) {
  const listening = new Map<string | null, boolean>();
  for (const event of events) {
    let heard = listening.get(event.ownerId);
    if (heard === undefined) {
      heard = await anyoneListens(tx, type, event.ownerId);
      listening.set(event.ownerId, heard);
    }
    if (heard) await recordEvent(tx, { type, ...event });
  }
}
