import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { createSiweMessage } from "viem/siwe";
import type { Session } from "#shared/schemas/session.ts";
import type { RegisterInput } from "#shared/schemas/users.ts";
import type { App } from "../../src/server/app.ts";
import { users } from "../../src/server/db/schema.ts";

export function buildRegistration(overrides: Partial<RegisterInput> = {}): RegisterInput {
  const tag = crypto.randomBytes(4).toString("hex");
  return {
    firstName: "Grace",
    lastName: "Hopper",
    email: `grace-${tag}@example.com`,
    password: "correct horse battery",
    walletAddress: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    ...overrides,
  };
}

/** Registers and logs in through the API, as a user would. */
export async function signUp(
  app: App,
  overrides: Partial<RegisterInput> = {},
): Promise<Session & { password: string }> {
  const input = buildRegistration(overrides);
  const registered = await app.inject({ method: "POST", url: "/api/users/register", payload: input });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const login = await app.inject({
    method: "POST",
    url: "/api/users/login",
    payload: { email: input.email, password: input.password },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return { ...login.json(), password: input.password };
}

export const bearer = (session: { token: string }) => ({ authorization: `Bearer ${session.token}` });

/** Makes a user an admin directly in the database (what `npm run admin -- promote` does). */
export async function makeAdmin(app: App, id: string) {
  await app.db.update(users).set({ isAdmin: true }).where(eq(users.id, id));
}

type Signer = { address: `0x${string}`; signMessage: (args: { message: string }) => Promise<`0x${string}`> };

/** A SIWE message for the test site with a fresh nonce, signed by `account`. */
export async function siweProof(app: App, account: Signer) {
  const { nonce } = (await app.inject({ method: "GET", url: "/api/auth/siwe/nonce" })).json();
  const message = createSiweMessage({
    address: account.address,
    chainId: 31337,
    domain: "penchain.test",
    uri: "http://penchain.test",
    nonce,
    version: "1",
    issuedAt: new Date(),
  });
  return { message, signature: await account.signMessage({ message }) };
}

/** Verifies `account` as the user's wallet by signing a SIWE message for the test site, as the profile page does. */
export async function verifyWallet(app: App, session: { token: string }, account: Signer) {
  const response = await app.inject({
    method: "POST",
    url: "/api/users/wallet",
    payload: await siweProof(app, account),
    headers: bearer(session),
  });
  if (response.statusCode !== 200) throw new Error(`wallet verification failed: ${response.body}`);
}
