import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, buildRegistration, makeAdmin, signUp } from "../../support/users.ts";

// Hardhat's well-known development keys #2 to #4: test wallets only.
const alice = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a");
const bob = privateKeyToAccount("0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6");
const carol = privateKeyToAccount("0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a");

describe.each(databaseTargets)("Sign-In with Ethereum on $name", (target) => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
  });
  afterAll(() => app.close());

  const nonce = async () => (await app.inject({ method: "GET", url: "/api/auth/siwe/nonce" })).json().nonce as string;

  async function proof(account = alice, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
    const message = createSiweMessage({
      address: account.address,
      chainId: 31337,
      domain: "penchain.test",
      uri: "http://penchain.test/login",
      nonce: await nonce(),
      version: "1",
      issuedAt: new Date(),
      statement: "Sign in to Penchain",
      ...overrides,
    });
    return { message, signature: await account.signMessage({ message }) };
  }
  const walletLogin = (body: object) => app.inject({ method: "POST", url: "/api/auth/siwe/verify", payload: body });
  const linkWallet = (session: { token: string }, body: object) =>
    app.inject({ method: "POST", url: "/api/users/wallet", payload: body, headers: bearer(session) });

  it("issues fresh, uncached nonces", async () => {
    const response = await app.inject({ method: "GET", url: "/api/auth/siwe/nonce" });
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json().nonce).toMatch(/^[A-Za-z0-9]{8,}$/);
    expect(await nonce()).not.toBe(response.json().nonce);
  });

  it("answers 404 for a wallet no account has verified", async () => {
    const response = await walletLogin(await proof(carol));
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/No account has verified this wallet/);
  });

  it("links a wallet by signature, then logs that account in with it", async () => {
    const user = await signUp(app);
    const linked = await linkWallet(user, await proof(alice));
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ walletAddress: alice.address, isWalletVerified: true });

    const login = await walletLogin(await proof(alice));
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({
      id: user.id,
      walletAddress: alice.address,
      loginMethod: "wallet",
      token: expect.any(String),
    });
    expect(user.loginMethod).toBe("password");
  });

  describe("at registration", () => {
    const register = (body: object) => app.inject({ method: "POST", url: "/api/users/register", payload: body });

    it("verifies the wallet that signed the offered message", async () => {
      const wallet = privateKeyToAccount(generatePrivateKey());
      const input = buildRegistration({ walletAddress: wallet.address.toLowerCase() });
      const response = await register({ ...input, walletProof: await proof(wallet) });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ walletAddress: wallet.address, isWalletVerified: true });
      const login = await walletLogin(await proof(wallet));
      expect(login.json()).toMatchObject({ email: input.email, loginMethod: "wallet" });
    });

    it("keeps the signature usable when the registration is refused for another reason", async () => {
      const wallet = privateKeyToAccount(generatePrivateKey());
      const taken = await signUp(app);
      const walletProof = await proof(wallet);
      const refused = await register({
        ...buildRegistration({ email: taken.email, walletAddress: wallet.address }),
        walletProof,
      });
      expect(refused.statusCode).toBe(409);
      const retried = await register({ ...buildRegistration({ walletAddress: wallet.address }), walletProof });
      expect(retried.statusCode, retried.body).toBe(201);
      expect(retried.json()).toMatchObject({ walletAddress: wallet.address, isWalletVerified: true });
    });

    it("refuses a signature from another wallet than the address entered, and creates no account", async () => {
      const [entered, signer] = [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())];
      const input = buildRegistration({ walletAddress: entered.address });
      const response = await register({ ...input, walletProof: await proof(signer) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        "The wallet that signed is not the Wallet Address entered. Sign with that wallet again.",
      );
      const login = await app.inject({
        method: "POST",
        url: "/api/users/login",
        payload: { email: input.email, password: input.password },
      });
      expect(login.statusCode).toBe(401);
    });

    it("refuses a wallet another account has verified with 409", async () => {
      const wallet = privateKeyToAccount(generatePrivateKey());
      expect((await linkWallet(await signUp(app), await proof(wallet))).statusCode).toBe(200);
      const response = await register({
        ...buildRegistration({ walletAddress: wallet.address }),
        walletProof: await proof(wallet),
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe("This wallet is already verified by another account.");
    });

    it("leaves a typed address unverified, even one another account has verified", async () => {
      const wallet = privateKeyToAccount(generatePrivateKey());
      await linkWallet(await signUp(app), await proof(wallet));
      const response = await register(buildRegistration({ walletAddress: wallet.address }));
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ walletAddress: wallet.address, isWalletVerified: false });
    });
  });

  it("refuses a wallet another account has verified with 409", async () => {
    const [first, second] = [await signUp(app), await signUp(app)];
    expect((await linkWallet(first, await proof(bob))).statusCode).toBe(200);
    const response = await linkWallet(second, await proof(bob));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("This wallet is already verified by another account.");
  });

  it("uses each nonce once", async () => {
    const user = await signUp(app);
    await linkWallet(user, await proof(carol));
    const signed = await proof(carol);
    expect((await walletLogin(signed)).statusCode).toBe(200);
    const replay = await walletLogin(signed);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe("This sign-in request has expired or was already used. Please sign again.");
  });

  it("refuses a nonce it never issued", async () => {
    const message = createSiweMessage({
      address: alice.address,
      chainId: 31337,
      domain: "penchain.test",
      uri: "http://penchain.test",
      nonce: "madeUpNonce123",
      version: "1",
      issuedAt: new Date(),
    });
    const response = await walletLogin({ message, signature: await alice.signMessage({ message }) });
    expect(response.statusCode).toBe(400);
  });

  it.each([
    [
      "another domain",
      { domain: "evil.example" },
      "The sign-in message is for another site. Sign in at http://penchain.test.",
    ],
    [
      "another origin in the URI",
      { uri: "https://evil.example/login" },
      "The sign-in message is for another site. Sign in at http://penchain.test.",
    ],
    ["another chain", { chainId: 1 }, "Sign in on Hardhat (chain id 31337)."],
    [
      "an old message",
      { issuedAt: new Date(Date.now() - 60 * 60 * 1000) },
      "The sign-in message has expired. Please sign again.",
    ],
    [
      "a message from the future",
      { issuedAt: new Date(Date.now() + 60 * 60 * 1000) },
      "The sign-in message has expired. Please sign again.",
    ],
    [
      "an expired message",
      { expirationTime: new Date(Date.now() - 1000) },
      "The sign-in message has expired. Please sign again.",
    ],
    [
      "a message not valid yet",
      { notBefore: new Date(Date.now() + 60 * 60 * 1000) },
      "The sign-in message is not valid yet.",
    ],
  ])("refuses %s", async (_label, overrides, message) => {
    const response = await walletLogin(await proof(alice, overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
  });

  it("refuses a signature by another key than the message's address", async () => {
    const signed = await proof(alice);
    const forged = { message: signed.message, signature: await bob.signMessage({ message: signed.message }) };
    const response = await walletLogin(forged);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe("The signature does not match the wallet in the message.");
  });

  it("refuses a blocked account's wallet login", async () => {
    const account = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
    const [admin, user] = [await signUp(app), await signUp(app)];
    await makeAdmin(app, admin.id);
    await linkWallet(user, await proof(account));
    await app.inject({ method: "PUT", url: `/api/users/block-user/${user.id}`, headers: bearer(admin) });
    expect((await walletLogin(await proof(account))).statusCode).toBe(403);
  });

  describe("malformed messages, signed by a wallet that has an account", () => {
    const account = privateKeyToAccount("0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e");
    let user: { token: string };
    beforeAll(async () => {
      user = await signUp(app);
      expect((await linkWallet(user, await proof(account))).statusCode).toBe(200);
    });

    /** A fresh, correctly signed message whose text was changed before signing. */
    async function tampered(edit: (message: string) => string) {
      const { message } = await proof(account);
      const changed = edit(message);
      expect(changed).not.toBe(message);
      return { message: changed, signature: await account.signMessage({ message: changed }) };
    }

    it.each([
      ["a URI that is not a URL", (m: string) => m.replace(/^URI: .*$/m, "URI: not a url")],
      ["an Issued At that is not a date", (m: string) => m.replace(/^Issued At: .*$/m, "Issued At: garbage")],
      ["an impossible Issued At", (m: string) => m.replace(/^Issued At: .*$/m, "Issued At: 2026-02-30T25:61:00.000Z")],
      ["no Issued At", (m: string) => m.replace(/^Issued At: .*\n?/m, "")],
      ["an Expiration Time that is not a date", (m: string) => `${m}\nExpiration Time: not-a-date`],
      ["a Not Before that is not a date", (m: string) => `${m}\nNot Before: soon`],
      ["a line the parser does not know", (m: string) => `${m}\nExtra: field`],
    ])("refuses %s with 400 and does not log in", async (_label, edit) => {
      const response = await walletLogin(await tampered(edit));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(
        "The sign-in message is not a valid Sign-In with Ethereum message. Please sign again.",
      );
      expect(response.json().token).toBeUndefined();
    });

    it("still logs in with the well-formed message", async () => {
      const response = await walletLogin(await proof(account));
      expect(response.statusCode).toBe(200);
      expect(response.json().token).toEqual(expect.any(String));
    });
  });
});
