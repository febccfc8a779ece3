import type { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** How long this route's request body may take to arrive (an archive's upload): longer than the default. */
    bodyDeadlineMs?: number;
  }
}

const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
/** How long a 408 may take to leave before its socket is destroyed anyway (a client that reads nothing). */
const FAREWELL_MS = 1000;

const deadlines = new WeakMap<IncomingMessage, NodeJS.Timeout>();

/** A request whose body is still to come: one with no length and no chunks has none, whatever its method. */
const awaitsBody = (request: IncomingMessage) =>
  !request.complete &&
  (request.headers["transfer-encoding"] !== undefined ||
    (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0"));

/**
 * The body did not arrive in time: the connection goes, whoever answered and whatever they answered. It is destroyed,
 * not only ended: a client keeping its side open would otherwise go on sending into a socket Node keeps reading.
 */
function expire(request: IncomingMessage, response: ServerResponse) {
  const socket = request.socket;
  if (request.complete || socket.destroyed) return;
  if (response.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(REQUEST_TIMEOUT, () => socket.destroy());
  setTimeout(() => socket.destroy(), FAREWELL_MS).unref();
}

function arm(request: IncomingMessage, response: ServerResponse, ms: number) {
  clearTimeout(deadlines.get(request));
  const timer = setTimeout(() => expire(request, response), ms);
  timer.unref();
  deadlines.set(request, timer);
}

/**
 * Slow clients cannot hold sockets: a request's body must have arrived within `deadlineMs` of its headers, or its
 * connection is answered 408 and closed. The deadline is set as Node hands over the request, before any route, so it
 * holds when something answered before the body was read (a 404, a 401, a 429), which leaves Node reading the rest.
 * Node's own `requestTimeout` would hold every route alike; here a route may allow more (`config.bodyDeadlineMs`: a
 * large upload on a home connection), and every other keeps the default.
 */
export function registerBodyDeadline(app: FastifyInstance, deadlineMs: number) {
  // Before Fastify's own listener, which may answer at once.
  app.server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
    if (!awaitsBody(request)) return;
    arm(request, response, deadlineMs);
    request.once("end", () => clearTimeout(deadlines.get(request)));
  });
  // Once the route's own guards let the request through: an upload refused (401, 429) keeps the default.
  app.addHook("preParsing", async (request, reply) => {
    const longer = request.routeOptions.config.bodyDeadlineMs;
    // An injected request (tests) has no socket to close.
    if (longer === undefined || !(request.raw.socket instanceof Socket) || !deadlines.has(request.raw)) return;
    arm(request.raw, reply.raw, longer);
  });
}
