import type { ServerResponse } from "node:http";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { notifications } from "../../db/schema.ts";
import type { Bus } from "../../infra/bus.ts";
import { periodic } from "../../infra/periodic.ts";
import { NOTIFICATIONS_CHANNEL, type NotificationsChanged } from "./notify.ts";
import { unreadCount, unreadCounts } from "./reads.ts";

/** A comment line now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 20_000;
/** Open tabs per user kept live; past it, the oldest stream is closed (its page refreshes on navigation). */
const STREAMS_PER_USER = 5;

/**
 * The unread counts of the users with a page open on this instance, pushed as Server-Sent Events
 * (`event: unread`, `data: {"count":n}`) whenever their notifications change here or on another instance (the bus
 * carries the news through Redis). Nothing polls: a change costs one query for the users it concerns who are
 * connected here.
 */
export function createNotificationHub(deps: { db: Db; bus: Bus; log: FastifyBaseLogger }) {
  const streams = new Map<string, ServerResponse[]>();

  const send = (response: ServerResponse, count: number) =>
    response.write(`event: unread\ndata: ${JSON.stringify({ count })}\n\n`);

  async function usersConcerned(message: NotificationsChanged) {
    if ("users" in message) return message.users.filter((id) => streams.has(id));
    const connected = [...streams.keys()];
    if (connected.length === 0) return [];
    const rows = await deps.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(
        and(
          eq(notifications.kind, "new_post"),
          eq(notifications.postId, message.newPost),
          inArray(notifications.userId, connected),
        ),
      );
    return rows.map((row) => row.userId);
  }

  async function refresh(message: NotificationsChanged) {
    const users = await usersConcerned(message);
    for (const [userId, count] of await unreadCounts(deps, users)) {
      for (const response of streams.get(userId) ?? []) send(response, count);
    }
  }

  const stopListening = deps.bus.subscribe(NOTIFICATIONS_CHANNEL, (message) => {
    refresh(message as NotificationsChanged).catch((error) =>
      deps.log.warn({ err: error }, "live notification counts could not be read"),
    );
  });
  const heartbeat = periodic(
    async () => {
      for (const list of streams.values()) for (const response of list) response.write(": keep-alive\n\n");
    },
    { everyMs: HEARTBEAT_MS, onError: () => {} },
  );

  function remove(userId: string, response: ServerResponse) {
    const list = streams.get(userId)?.filter((item) => item !== response) ?? [];
    if (list.length > 0) streams.set(userId, list);
    else streams.delete(userId);
  }

  return {
    /** Streams `userId`'s unread count on `response` (already taken over from Fastify) until either side closes. */
    async open(userId: string, response: ServerResponse) {
      response.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      const list = [...(streams.get(userId) ?? []), response];
      if (list.length > STREAMS_PER_USER) list.shift()?.end();
      streams.set(userId, list);
      response.on("close", () => remove(userId, response));
      send(response, (await unreadCount(deps, userId)).count);
    },

    /** How many pages are kept live here (tests, the benchmark). */
    size: () => [...streams.values()].reduce((total, list) => total + list.length, 0),

    start: () => heartbeat.start(),

    async close() {
      stopListening();
      await heartbeat.close();
      for (const list of streams.values()) for (const response of list) response.end();
      streams.clear();
    },
  };
}
export type NotificationHub = ReturnType<typeof createNotificationHub>;
