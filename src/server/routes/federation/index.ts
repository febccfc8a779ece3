import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError, validationError } from "../../http-error.ts";
import { findBadText, nestsDeeperThan, TOO_DEEP } from "../../plugins/input-guard.ts";
import { byAddress, limitBy } from "../../plugins/rate-limits.ts";
import type { Federator } from "../../services/federation/federation.ts";

/** An activity larger than this is refused (413): a long article is a few dozen KiB. */
export const INBOX_BODY_LIMIT = 256 * 1024;
const ACTIVITY_TYPES = ["application/activity+json", "application/ld+json", "application/json"];

/**
 * An activity no handler may see, answered 400 before Fedify parses it: nested deeper than the API allows, not JSON,
 * or holding text the database cannot store (a NUL, broken Unicode).
 */
function refusedActivity(body: Buffer): Error | null {
  if (nestsDeeperThan(body)) return validationError([{ path: [], message: TOO_DEEP }]);
  let activity: unknown;
  try {
    activity = JSON.parse(body.toString("utf8"));
  } catch {
    return new HttpError(400, "An activity must be JSON");
  }
  const bad = findBadText(activity);
  return bad ? validationError([bad]) : null;
}

/** What ActivityPub clients ask for (a browser asks for HTML or anything). */
const wantsActivity = (accept: string | undefined) =>
  accept !== undefined && /application\/(activity\+json|ld\+json)/i.test(accept);

/**
 * The federation's addresses, handed to Fedify as web requests: WebFinger, NodeInfo, everything under `/ap/`
 * (actors, their collections, inboxes), and a profile or post address asked for as ActivityStreams JSON (the
 * `activity` constraint: a browser gets the page as ever). No other request goes through Fedify.
 */
export function registerFederationRoutes(app: FastifyInstance, federator: Federator) {
  app.addConstraintStrategy({
    name: "activity",
    storage() {
      const handlers = new Map<string, unknown>();
      return {
        get: (value: string) => (handlers.get(value) as never) ?? null,
        set: (value: string, handler: unknown) => void handlers.set(value, handler),
      };
    },
    deriveConstraint: (request: { headers: Record<string, string | string[] | undefined> }) =>
      wantsActivity(request.headers.accept as string | undefined) ? "json" : "",
    mustMatchWhenDerived: false,
  });

  const base = app.config.publicUrl;
  async function handOver(request: FastifyRequest, reply: FastifyReply, path = request.url) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string") headers.set(name, value);
      else if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    }
    const hasBody = request.method !== "GET" && request.method !== "HEAD" && Buffer.isBuffer(request.body);
    const response = await federator.fetch(
      new Request(`${base}${path}`, {
        method: request.method,
        headers,
        body: hasBody ? new Uint8Array(request.body as Buffer) : undefined,
      }),
      request.deps.changed,
    );
    reply.code(response.status);
    response.headers.forEach((value, name) => {
      if (name !== "content-length") reply.header(name, value);
    });
    return reply.send(Buffer.from(await response.arrayBuffer()));
  }

  return app.register(async (scope) => {
    // Activities are read as bytes: their signatures cover the body exactly as sent.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      ACTIVITY_TYPES,
      { parseAs: "buffer", bodyLimit: INBOX_BODY_LIMIT },
      (_request, body, done) => {
        const refused = refusedActivity(body as Buffer);
        if (refused) done(refused);
        else done(null, body);
      },
    );
    const hidden = { schema: { hide: true } };
    scope.get("/.well-known/webfinger", hidden, handOver);
    scope.get("/.well-known/nodeinfo", hidden, handOver);
    scope.get("/nodeinfo/2.1", hidden, handOver);
    scope.get("/ap/*", hidden, handOver);
    scope.post("/ap/*", { ...hidden, preHandler: limitBy(app, "inbox", byAddress) }, handOver);
    scope.get("/posts/:id", { ...hidden, constraints: { activity: "json" } }, handOver);
    // A profile page's address answers its author's actor (whose own id is under /ap/).
    scope.get("/profile/:id", { ...hidden, constraints: { activity: "json" } }, (request, reply) =>
      handOver(request, reply, `/ap/actors/${encodeURIComponent((request.params as { id: string }).id)}`),
    );
  });
}
