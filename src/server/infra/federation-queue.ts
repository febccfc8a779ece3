import type { MessageQueue, MessageQueueEnqueueOptions, MessageQueueListenOptions } from "@fedify/fedify";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client.ts";
import { federationQueue } from "../db/schema.ts";

type Handler = (message: unknown) => Promise<void> | void;

/** A message whose handler keeps failing (not a delivery: Fedify retries those itself) is dropped after this. */
const MAX_ATTEMPTS = 10;
/** Messages one instance handles at once: deliveries wait on other servers, not on us. */
const WORKERS = 8;

async function rows<Row>(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/**
 * Fedify's message queue on our own database, shared by every instance: activities to deliver and activities
 * received. A message is leased to one instance while it is handled and deleted when done, so an instance that
 * dies mid-way leaves it to another after the lease (`leaseMs`); a handler is given half of it. Messages with one
 * ordering key are handled one at a time in the order queued (a post's `Create`, then its `Update`, `Delete`).
 * Fedify retries failed deliveries itself, with back-off, by queueing them again with a delay.
 */
export function createFederationQueue(options: { db: Db; log: FastifyBaseLogger; leaseMs: number; pollMs?: number }) {
  const { db, log, leaseMs } = options;
  const pollMs = options.pollMs ?? 1_000;
  const sleepers = new Set<() => void>();
  const nudge = () => {
    for (const wake of sleepers) wake();
  };

  async function claim(): Promise<{ id: number; message: unknown; attempts: number } | undefined> {
    const [row] = await rows<{ id: number | string; message: unknown; attempts: number }>(
      db,
      sql`
      update ${federationQueue} set run_at = now() + make_interval(secs => ${leaseMs / 1000}), attempts = attempts + 1
      where id = (
        select q.id from ${federationQueue} q
        where q.run_at <= now()
          and (q.ordering_key is null or not exists (
            select 1 from ${federationQueue} e where e.ordering_key = q.ordering_key and e.id < q.id))
        order by q.run_at, q.id
        limit 1
        for update skip locked)
      and run_at <= now()
      returning id, message, attempts`,
    );
    return row && { id: Number(row.id), message: row.message, attempts: row.attempts };
  }

  async function handle(handler: Handler, row: { id: number; message: unknown; attempts: number }) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        handler(row.message),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error("the handler took too long")), leaseMs / 2);
        }),
      ]).finally(() => clearTimeout(timer));
      await db.execute(sql`delete from ${federationQueue} where id = ${row.id}`);
    } catch (error) {
      if (row.attempts >= MAX_ATTEMPTS) {
        log.error({ err: error, queued: row.message }, "federation: a queued message failed every attempt; dropped");
        await db.execute(sql`delete from ${federationQueue} where id = ${row.id}`);
        return;
      }
      const delaySeconds = Math.min(2 ** row.attempts, 3_600);
      log.warn({ err: error, attempts: row.attempts }, "federation: a queued message failed; it is tried again later");
      await db.execute(
        sql`update ${federationQueue} set run_at = now() + make_interval(secs => ${delaySeconds}) where id = ${row.id}`,
      );
    }
  }

  const queue: MessageQueue & { nudge(): void } = {
    nativeRetrial: false,

    async enqueue(message: unknown, enqueueOptions?: MessageQueueEnqueueOptions) {
      await queue.enqueueMany?.([message], enqueueOptions);
    },

    async enqueueMany(messages: readonly unknown[], enqueueOptions?: MessageQueueEnqueueOptions) {
      if (messages.length === 0) return;
      const delayMs = Math.max(enqueueOptions?.delay?.total("millisecond") ?? 0, 0);
      const orderingKey = enqueueOptions?.orderingKey ?? null;
      await db.insert(federationQueue).values(
        messages.map((message) => ({
          message,
          orderingKey,
          runAt: sql`now() + make_interval(secs => ${delayMs / 1000})`,
        })),
      );
      if (delayMs === 0) nudge();
    },

    /** Handles due messages until `signal` aborts, up to WORKERS at once; then waits for those under way. */
    async listen(handler: Handler, listenOptions: MessageQueueListenOptions = {}) {
      const { signal } = listenOptions;
      const running = new Set<Promise<void>>();
      const sleep = () =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(done, pollMs);
          function done() {
            clearTimeout(timer);
            sleepers.delete(done);
            signal?.removeEventListener("abort", done);
            resolve();
          }
          sleepers.add(done);
          signal?.addEventListener("abort", done);
        });
      while (!signal?.aborted) {
        if (running.size >= WORKERS) {
          await Promise.race(running);
          continue;
        }
        const row = await claim().catch((error) => {
          log.error({ err: error }, "federation: the queue could not be read");
          return undefined;
        });
        if (!row) {
          await sleep();
          continue;
        }
        const task = handle(handler, row).finally(() => {
          running.delete(task);
          nudge();
        });
        running.add(task);
      }
      await Promise.allSettled(running);
    },

    /** Looks for due messages now (another instance queued some). */
    nudge,
  };
  return queue;
}

export type FederationQueue = ReturnType<typeof createFederationQueue>;
