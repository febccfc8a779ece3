import type { ServerResponse } from "node:http";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { notifications, revokedSessions, users } from "../../db/schema.ts";
import type { Bus } from "../../infra/bus.ts";
import { periodic } from "../../infra/periodic.ts";
import { lockedOut } from "../core/auth-user.ts";
import { SESSIONS_CHANNEL, type SessionsEnded } from "../core/sessions.ts";
import { readingNow } from "../stats/stats.ts";
import { NOTIFICATIONS_CHANNEL, type NotificationsChanged } from "./notify.ts";
import { unreadCount, unreadCounts } from "./user-notifications.ts";

/** Who opened a stream, with which session (a token's id and version). */
export interface StreamSession {
  userId: string;
  sessionId: string | null;
  version: number;
}

/** A comment line now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 20_000;
/** How often authors with a page open hear how many people are reading them now. */
const READING_EVERY_MS = 10_000;
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
  /** The session each stream was opened with: it closes when that session ends. */
  const sessions = new WeakMap<ServerResponse, StreamSession>();

  const send = (response: ServerResponse, count: number) =>
    response.write(`event: unread\ndata: ${JSON.stringify({ count })}\n\n`);
  /** The last "reading now" count each page was sent: only a change is sent again. */
  const readingSent = new WeakMap<ServerResponse, number>();
  const sendReading = (response: ServerResponse, count: number) => {
    if (readingSent.get(response) === count) return;
    readingSent.set(response, count);
    response.write(`event: reading\ndata: ${JSON.stringify({ count })}\n\n`);
  };

  /** Each connected author's readers of the last minutes (services/stats/), one statement for all of them. */
  async function refreshReading() {
    const connected = [...streams.keys()];
    if (connected.length === 0) return;
    const counts = await readingNow(deps, connected);
    for (const userId of connected) {
      for (const response of streams.get(userId) ?? []) sendReading(response, counts.get(userId) ?? 0);
    }
  }

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

  /** Closes the user's streams whose session ended (logged out, a new password, blocked). */
  async function closeEnded({ userId }: SessionsEnded) {
    const open = streams.get(userId);
    if (!open) return;
    const [user] = await deps.db
      .select({ version: users.tokenVersion, isBlocked: users.isBlocked, suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, userId));
    const ids = open.flatMap((response) => sessions.get(response)?.sessionId ?? []);
    const revoked = new Set(
      ids.length === 0
        ? []
        : (
            await deps.db
              .select({ id: revokedSessions.sessionId })
              .from(revokedSessions)
              .where(inArray(revokedSessions.sessionId, ids))
          ).map((row) => row.id),
    );
    for (const response of open) {
      const session = sessions.get(response);
      const ended =
        !user || lockedOut(user) || session?.version !== user.version || revoked.has(session.sessionId ?? "");
      if (ended) response.end();
    }
  }

  const stopListening = deps.bus.subscribe(NOTIFICATIONS_CHANNEL, (message) => {
    refresh(message as NotificationsChanged).catch((error) =>
      deps.log.warn({ err: error }, "live notification counts could not be read"),
    );
  });
  const stopWatchingSessions = deps.bus.subscribe(SESSIONS_CHANNEL, (message) => {
    closeEnded(message as SessionsEnded).catch((error) =>
      deps.log.warn({ err: error }, "live streams of an ended session could not be closed"),
    );
  });
  const reading = periodic(refreshReading, {
    everyMs: READING_EVERY_MS,
    onError: (error) => deps.log.warn({ err: error }, "reading-now counts could not be read"),
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
    async open(session: StreamSession, response: ServerResponse) {
      const { userId } = session;
      sessions.set(response, session);
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

    /** Sends the "reading now" counts that changed (on its timer; tests call it at once). */
    refreshReading,

    /** How many pages are kept live here (tests, the benchmark). */
    size: () => [...streams.values()].reduce((total, list) => total + list.length, 0),

    start: () => {
      heartbeat.start();
      reading.start();
    },

    async close() {
      stopListening();
      stopWatchingSessions();
      await heartbeat.close();
      await reading.close();
      for (const list of streams.values()) for (const response of list) response.end();
      streams.clear();
    },
  };
}
export type NotificationHub = ReturnType<typeof createNotificationHub>;
