import crypto from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { connectRedis } from "./redis.ts";

type Handler = (message: unknown) => void;

/**
 * Messages to every instance of the server on a channel: delivered here at once (before `publish` returns), and to
 * the other instances through Redis pub/sub when REDIS_URL is set. Redis carries them at most once: a listener must
 * cope with missing one (the read cache also expires entries; the bell also refreshes on navigation).
 */
export function createBus(options: { redisUrl?: string | undefined; log: FastifyBaseLogger }) {
  const instanceId = crypto.randomUUID();
  const handlers = new Map<string, Set<Handler>>();
  const publisher = options.redisUrl
    ? connectRedis(options.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  const subscriber = options.redisUrl ? connectRedis(options.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  for (const client of [publisher, subscriber]) {
    client?.on("error", (error) => options.log.warn({ err: error }, "bus: Redis unavailable"));
  }

  function deliver(channel: string, message: unknown) {
    for (const handler of handlers.get(channel) ?? []) {
      try {
        handler(message);
      } catch (error) {
        options.log.error({ err: error, channel }, "bus: a listener failed");
      }
    }
  }
  subscriber?.on("message", (channel: string, raw: string) => {
    try {
      const { from, message } = JSON.parse(raw) as { from: string; message: unknown };
      if (from !== instanceId) deliver(channel, message);
    } catch (error) {
      options.log.warn({ err: error, channel }, "bus: a message could not be read");
    }
  });

  return {
    /** Whether other instances hear what this one publishes. */
    shared: Boolean(options.redisUrl),

    publish(channel: string, message: unknown) {
      deliver(channel, message);
      publisher?.publish(channel, JSON.stringify({ from: instanceId, message })).catch(() => {});
    },

    /** Calls `handler` with every message on `channel`, from here and elsewhere; answers how to stop. */
    subscribe(channel: string, handler: Handler) {
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        subscriber
          ?.subscribe(channel)
          .catch((error) => options.log.warn({ err: error, channel }, "bus: no subscription"));
      }
      set.add(handler);
      return () => void set.delete(handler);
    },

    async close() {
      handlers.clear();
      await Promise.all([publisher, subscriber].map((client) => client?.quit().catch(() => client.disconnect())));
    },
  };
}
export type Bus = ReturnType<typeof createBus>;
