import type { FastifyBaseLogger } from "fastify";
import type { PublicClient } from "viem";
import type { Db } from "../../db/client.ts";
import type { AppConfig } from "../../env.ts";
import type { Bus } from "../../infra/bus.ts";
import type { Mailer } from "../../infra/mailer.ts";
import type { Storage } from "../../infra/storage.ts";
import type { Changed } from "./changes.ts";
import type { SessionTokens } from "./session-tokens.ts";

/**
 * What services work with. A service takes these (or the few it uses) as plain values, never the app or a request,
 * so a route, a job, a script or the server renderer can call it. `db` may be a transaction.
 */
export interface Deps {
  db: Db;
  config: AppConfig;
  chain: PublicClient;
  mailer: Mailer;
  storage: Storage;
  tokens: SessionTokens;
  /** Messages to every instance (live unread counts). */
  bus: Bus;
  log: FastifyBaseLogger;
  /** What a write changed in public reads, told once it is committed (core/changes.ts). */
  changed: Changed;
}
