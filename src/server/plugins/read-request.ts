import type { FastifyRequest } from "fastify";
import type { ReadRequest } from "../services/stats/read-from-request.ts";
import { addressKey } from "./rate-limits.ts";

/** What a request says about its reader for the stats: their opt-out, user agent and address (hashed, never kept). */
export function readRequestOf(
  request: FastifyRequest,
  read: Pick<ReadRequest, "kind" | "targetId" | "referrer" | "url">,
): ReadRequest {
  return {
    ...read,
    userAgent: request.headers["user-agent"],
    address: addressKey(request),
    host: request.headers.host,
    optedOut: request.headers.dnt === "1" || request.headers["sec-gpc"] === "1",
  };
}
