import type { Context } from "@fedify/fedify";
import { verifyRequest } from "@fedify/fedify/sig";
import { isActor } from "@fedify/fedify/vocab";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-error.ts";
import { hostOf, isBlockedDomain } from "./domains.ts";

/** Mastodon's username shape: what a remote `preferredUsername` must look like to be shown as `@name@host`. */
const REMOTE_USERNAME = /^[a-z0-9_](?:[a-z0-9_.-]{0,62}[a-z0-9_])?$/i;

/** `@name@host` for a remote account, or null when its name is not a username (spaces, `@`, direction marks…). */
export function remoteHandle(username: string | null | undefined, actorUri: URL): string | null {
  return username && REMOTE_USERNAME.test(username) ? `@${username}@${actorUri.host}` : null;
}

/** Every actor an activity names, however it is written: an id, an object with an id, or a list of either. */
export function actorsOf(activity: unknown): string[] {
  const actor = (activity as { actor?: unknown } | null)?.actor;
  const list = Array.isArray(actor) ? actor : actor === undefined ? [] : [actor];
  return list.map((item) => (typeof item === "string" ? item : (item as { id?: unknown } | null)?.id)).map(String);
}

/**
 * Checks an activity posted to an inbox before Fedify handles it: it names exactly one actor, an http(s) one on a
 * domain that is not blocked, and the request is signed (HTTP Signatures) by a key that actor owns: one on the
 * actor's own server, or one its actor document lists. Fedify itself believes a key document's `owner` claim, so a
 * key on one server could otherwise speak for an account on another.
 */
export async function checkSender(ctx: Context<void>, db: Db, request: Request, activity: unknown): Promise<void> {
  const actors = actorsOf(activity);
  for (const actor of actors) {
    const host = URL.canParse(actor) ? hostOf(actor) : null;
    if (host && (await isBlockedDomain(db, host))) throw new HttpError(403, "This domain is blocked here");
  }
  const actor = actors.length === 1 ? URL.parse(actors[0] as string) : null;
  if (!actor || !/^https?:$/.test(actor.protocol)) throw new HttpError(400, "An activity must name one actor");
  const key = await verifyRequest(request.clone(), {
    documentLoader: ctx.documentLoader,
    contextLoader: ctx.contextLoader,
  }).catch(() => null);
  if (!key?.id) throw new HttpError(401, "The request is not signed by a key this server can check");
  if (key.id.origin === actor.origin) return;
  const document = await ctx.lookupObject(actor).catch(() => null);
  const listed =
    isActor(document) && document.id?.href === actor.href
      ? [...document.publicKeyIds, ...document.assertionMethodIds].some((id) => id.href === key.id?.href)
      : false;
  if (!listed) throw new HttpError(401, "The signing key does not belong to the activity's actor");
}
