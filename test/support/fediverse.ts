import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { createFederation, generateCryptoKeyPair, MemoryKvStore } from "@fedify/fedify";
import { signRequest } from "@fedify/fedify/sig";
import {
  Accept,
  type Activity,
  Announce,
  Create,
  CryptographicKey,
  Delete,
  Endpoints,
  Flag,
  Follow,
  Note,
  Person,
  PUBLIC_COLLECTION,
  Undo,
  Update,
} from "@fedify/fedify/vocab";
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from "undici";
import type { Database } from "../../src/server/db/client.ts";
import { buildTestApp } from "./app.ts";
import { relay } from "./tcp-proxy.ts";

/**
 * An https front for a test server: WebFinger's `acct:` lookups are https only, so a peer can follow
 * `@handle@127.0.0.1:port` only over TLS. A certificate for 127.0.0.1 is made for the run (openssl) and trusted by
 * this process's fetch, and only it; connections are passed on to `targetPort` once it is set.
 */
export async function startTlsFront() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "penchain-tls-"));
  const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  const certificate = fs.readFileSync(cert);
  const previousDispatcher = getGlobalDispatcher();
  setGlobalDispatcher(new Agent({ connect: { ca: [...tls.rootCertificates, certificate.toString()] } }));
  let targetPort = 0;
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key: fs.readFileSync(key), cert: certificate }, (client) =>
    relay(client, net.connect(targetPort, "127.0.0.1"), sockets),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    /** The certificate's file, for a child process to trust (NODE_EXTRA_CA_CERTS). */
    certFile: cert,
    target(port: number) {
      targetPort = port;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      setGlobalDispatcher(previousDispatcher);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a peer's inbox was sent, in order, as the JSON-LD it arrived as (compacted). */
export interface Received {
  type: string;
  id: string | null;
  actor: string | null;
  json: Record<string, unknown>;
}

/**
 * A small ActivityPub server of the test's own, built with Fedify on loopback: one actor (`alice`) with keys,
 * WebFinger and an inbox that keeps what arrives. It follows, unfollows and replies as a Mastodon would.
 */
export async function startPeer(
  name = "alice",
  host = "127.0.0.1",
  /** What the actor says of itself, where a test needs it to lie: its username, or inboxes on other hosts. */
  claims: { username?: string; inbox?: string; sharedInbox?: string } = {},
) {
  const keys = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), await generateCryptoKeyPair("Ed25519")];
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  const received: Received[] = [];
  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (identifier !== name) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: claims.username ?? identifier,
        name: "Alice of the Fediverse",
        inbox: claims.inbox ? new URL(claims.inbox) : ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: claims.sharedInbox ? new URL(claims.sharedInbox) : ctx.getInboxUri() }),
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((pair) => pair.multikey),
      });
    })
    .setKeyPairsDispatcher((_ctx, identifier) => (identifier === name ? keys : []));
  const keep = async (_ctx: unknown, activity: Activity) => {
    received.push({
      type: activity.constructor.name,
      id: activity.id?.href ?? null,
      actor: activity.actorId?.href ?? null,
      json: (await activity.toJsonLd({ format: "compact" })) as Record<string, unknown>,
    });
  };
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Accept, keep)
    .on(Create, keep)
    .on(Update, keep)
    .on(Delete, keep)
    .on(Announce, keep)
    .on(Flag, keep);

  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [header, value] of Object.entries(request.headers))
      if (typeof value === "string") headers.set(header, value);
    const answer = await federation.fetch(
      new Request(`${origin}${request.url}`, {
        method: request.method,
        headers,
        body: request.method === "POST" ? Buffer.concat(chunks) : undefined,
      }),
      { contextData: undefined },
    );
    response.writeHead(answer.status, Object.fromEntries(answer.headers));
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://${host}:${(server.address() as net.AddressInfo).port}`;
  const ctx = () => federation.createContext(new URL(origin), undefined);
  const me = () => ctx().getActorUri(name);
  const sender = { identifier: name };

  return {
    origin,
    actorUri: () => me().href,
    received,
    context: ctx,
    /** Finds an actor or object the way Mastodon's search box does (`acct:` through WebFinger, or a URL). */
    lookup: (query: string) => ctx().lookupObject(query),
    async follow(target: Person | { id: URL | null; inboxId?: URL | null }) {
      const follow = new Follow({ id: new URL(`#follow-${Date.now()}`, me()), actor: me(), object: target.id });
      await ctx().sendActivity(sender, target as Person, follow, { immediate: true });
      return follow;
    },
    async unfollow(target: Person, follow: Follow) {
      const undo = new Undo({ id: new URL(`#undo-${Date.now()}`, me()), actor: me(), object: follow });
      await ctx().sendActivity(sender, target, undo, { immediate: true });
    },
    /** POSTs `json` as it is (any shape at all) to `url`, signed with this peer's RSA key; answers the response. */
    async post(url: string, json: unknown) {
      const [pair] = await ctx().getActorKeyPairs(name);
      if (!pair) throw new Error("the peer has no key");
      return signedPost(url, json, pair.privateKey, pair.keyId);
    },
    /** Sends `activity` to `target`'s inbox, signed with this peer's key. */
    async send(target: Person, activity: Activity) {
      await ctx().sendActivity(sender, target, activity, { immediate: true });
    },
    note(inReplyTo: URL, content: string, id = `note-${Date.now()}`) {
      return new Note({
        id: new URL(`/notes/${id}`, origin),
        attribution: me(),
        content,
        replyTarget: inReplyTo,
        to: PUBLIC_COLLECTION,
      });
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Peer = Awaited<ReturnType<typeof startPeer>>;

/** POSTs `json` to `url` as ActivityStreams, signed (HTTP Signatures) with `privateKey` as `keyId`. */
async function signedPost(url: string, json: unknown, privateKey: CryptoKey, keyId: URL) {
  const request = new Request(url, {
    method: "POST",
    headers: { "content-type": "application/activity+json", accept: "application/activity+json" },
    body: typeof json === "string" ? json : JSON.stringify(json),
  });
  return fetch(await signRequest(request, privateKey, keyId));
}

/**
 * A hostile server: it publishes a key document whose `owner` names an account on another server (`owner`), and
 * signs activities with that key as whoever it likes.
 */
export async function startKeyForger(owner: string) {
  const { privateKey, publicKey } = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
  let document = "";
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/activity+json" });
    response.end(document);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const keyId = new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/keys/forged`);
  document = JSON.stringify(await new CryptographicKey({ id: keyId, owner: new URL(owner), publicKey }).toJsonLd());
  return {
    keyId,
    post: (url: string, json: unknown) => signedPost(url, json, privateKey, keyId),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The app federating behind an https front on loopback (FEDERATION=on), listening, with one peer of the test's own:
 * where every federation test starts.
 */
export async function startFederatingApp(database: Database) {
  const front = await startTlsFront();
  const app = await buildTestApp(database, {
    env: { PUBLIC_URL: front.origin, FEDERATION: "on", FEDERATION_LEASE_MS: "5000" },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  front.target((app.server.address() as net.AddressInfo).port);
  const peer = await startPeer();
  return {
    front,
    app,
    peer,
    async close() {
      await peer.close();
      await app.close();
      await front.close();
    },
  };
}

/** A `Like` as JSON, its actor written however the test needs (an id, an object, a list). */
export const likeJson = (id: string, actor: unknown, object: string) => ({
  "@context": "https://www.w3.org/ns/activitystreams",
  id,
  type: "Like",
  actor,
  object,
});
