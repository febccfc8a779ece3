import http from "node:http";
import type net from "node:net";
import { asc, eq } from "drizzle-orm";
import type { App } from "../../src/server/app.ts";
import { webhookDeliveries, webhookEvents } from "../../src/server/db/schema.ts";
import { bearer } from "./users.ts";

interface Hit {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A receiver of webhooks on loopback: records what reaches it; `answer` picks each status by path (200 after). */
export async function startReceiver() {
  const hits: Hit[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      hits.push({ path, headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
      const queue = answers.get(path);
      response.statusCode = queue && queue.length > 0 ? (queue.shift() as number) : 200;
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: (path: string) => hits.filter((hit) => hit.path === path),
    answer: (path: string, ...statuses: number[]) => answers.set(path, statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Makes an endpoint through the API, as its owner would; fails the test if refused. */
export async function makeEndpoint(app: App, owner: { token: string }, url: string, events: string[]) {
  const response = await app.inject({
    method: "POST",
    url: "/api/webhooks",
    payload: { url, events },
    headers: bearer(owner),
  });
  if (response.statusCode !== 201) throw new Error(`webhook refused: ${response.body}`);
  return response.json() as { id: string; secret: string };
}

/** The events queued for an endpoint, oldest first, as written in the changes' transactions. */
export async function queuedFor(app: App, endpointId: string) {
  const rows = await app.db
    .select({ type: webhookEvents.type, data: webhookEvents.data, deliveryId: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(asc(webhookEvents.createdAt), asc(webhookDeliveries.createdAt));
  return rows as { type: string; data: Record<string, unknown>; deliveryId: string }[];
}
