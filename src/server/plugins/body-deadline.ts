import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** How long this route's request body may take to arrive (an archive's upload): longer than the default. */
    bodyDeadlineMs?: number;
  }
}

/**
 * Slow clients cannot hold sockets: a request's body must have arrived within `deadlineMs` of its headers, or its
 * connection is answered 408 and closed. Node's own `requestTimeout` does this for every route alike; here a route may
 * allow more (`config.bodyDeadlineMs`: a large upload on a home connection), and every other keeps the default.
 */
export function registerBodyDeadline(app: FastifyInstance, deadlineMs: number) {
  app.addHook("onRequest", async (request, reply) => {
    const raw = request.raw;
    // An injected request (tests) has no socket to close.
    if (raw.complete || !(raw.socket instanceof Socket)) return;
    const timer = setTimeout(() => {
      const socket = raw.socket;
      if (raw.complete || socket.destroyed) return;
      if (reply.raw.headersSent) socket.destroy();
      else socket.end("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }, request.routeOptions.config.bodyDeadlineMs ?? deadlineMs);
    timer.unref();
    const done = () => clearTimeout(timer);
    raw.once("end", done);
    raw.once("close", done);
  });
}
