/**
 * Penchain's typed client: every operation as a function named by its operationId, with its body, answer and error
 * types, generated from openapi.json into src/ by `npm run api:client`. docs/api.md shows it in use.
 */
import { createClient, createConfig } from "./src/client/index.ts";

export type { Client } from "./src/client/index.ts";
export * from "./src/index.ts";

/** A client for one site, sending a session or a personal access token (`pcn_…`) to the operations that take one. */
export function createPenchainClient({ baseUrl, token }: { baseUrl: string; token?: string }) {
  return createClient(createConfig({ baseUrl, ...(token ? { auth: () => token } : {}) }));
}
