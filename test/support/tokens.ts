import type { Scope } from "#shared/scopes.ts";
import type { App } from "../../src/server/app.ts";
import { bearer } from "./users.ts";

/** Makes a personal access token through the API, as the settings screen does, and returns it with its header. */
export async function makeToken(
  app: App,
  session: { token: string },
  scopes: Scope[],
  extra: { name?: string; expiresInDays?: number } = {},
) {
  const response = await app.inject({
    method: "POST",
    url: "/api/tokens",
    payload: { name: extra.name ?? "script", scopes, ...extra },
    headers: bearer(session),
  });
  if (response.statusCode !== 201) throw new Error(`token failed: ${response.body}`);
  const made = response.json() as { id: string; token: string; scopes: Scope[]; expiresAt: string | null };
  return { ...made, headers: { authorization: `Bearer ${made.token}` } };
}
