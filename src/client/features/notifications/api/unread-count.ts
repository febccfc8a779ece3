import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { readingNowSchema, unreadCountSchema } from "#shared/schemas/live.ts";
import { api } from "../../../lib/api-client.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { sessionStore } from "../../../lib/session.ts";

export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.notifications.unread(),
    queryFn: () => api("/api/notifications/unread-count", unreadCountSchema),
  });

/** Resolves once the page has loaded and the browser has a moment (at most a few seconds later). */
function pageSettled() {
  return new Promise<void>((resolve) => {
    const idle = () =>
      "requestIdleCallback" in window
        ? requestIdleCallback(() => resolve(), { timeout: 3000 })
        : setTimeout(resolve, 1000);
    if (document.readyState === "complete") idle();
    else addEventListener("load", idle, { once: true });
  });
}

/** The longest wait between two tries to reopen a dropped stream. */
const MAX_RETRY_MS = 60_000;

/**
 * Reads the server's event stream of the unread count (`GET /api/notifications/stream`) with the session's token
 * (an EventSource cannot send one), until `signal` aborts; each count goes to `onCount`, each "reading now" to
 * `onReading`.
 */
async function streamUnread(
  token: string,
  signal: AbortSignal,
  onCount: (count: number) => void,
  onReading: (reading: { count: number }) => void,
) {
  const response = await fetch("/api/notifications/stream", { headers: { authorization: `Bearer ${token}` }, signal });
  if (!response.ok || !response.body) throw new Error(`stream refused (${response.status})`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const [, name, data] = /^event: (\w+)\ndata: (.*)$/m.exec(event) ?? [];
      if (name === "unread" && data) onCount(unreadCountSchema.parse(JSON.parse(data)).count);
      // The author's readers now, for the stats screen (features/stats reads it under its key).
      if (name === "reading" && data) onReading(readingNowSchema.parse(JSON.parse(data)));
      end = buffer.indexOf("\n\n");
    }
  }
}

/**
 * The signed-in user's unread count: kept live while the page is open by the server's events (no polling), the
 * stream reopened with a growing wait when it drops, and read again on every navigation meanwhile.
 */
export function useUnreadCount(userId: string) {
  const queryClient = useQueryClient();
  const query = useQuery(unreadCountQueryOptions());
  const { pathname } = useLocation();

  // A refresh on navigation: the fallback when the stream is down.
  useEffect(() => {
    void pathname;
    void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.unread() });
  }, [pathname, queryClient]);

  useEffect(() => {
    const controller = new AbortController();
    let wait = 1000;
    const set = (count: number) => {
      wait = 1000;
      const previous = queryClient.getQueryData(queryKeys.notifications.unread());
      queryClient.setQueryData(queryKeys.notifications.unread(), { count });
      // Something new arrived: the list is stale.
      if (previous && (previous as { count: number }).count !== count) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.list() });
      }
    };
    (async () => {
      // The count itself comes with the first render (the query above); the live stream can wait until the page has
      // loaded and the browser is idle, so it takes nothing from the page's start.
      await pageSettled();
      while (!controller.signal.aborted) {
        // The stream is this user's: a session that changed hands (or ended) stops it.
        const session = sessionStore.get();
        if (session?.id !== userId) return;
        const token = session.token;
        await streamUnread(token, controller.signal, set, (reading) =>
          queryClient.setQueryData(queryKeys.stats.readingNow(), reading),
        ).catch(() => {});
        if (controller.signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(wait * 2, MAX_RETRY_MS);
      }
    })();
    return () => controller.abort();
  }, [userId, queryClient]);

  return query.data?.count ?? 0;
}
