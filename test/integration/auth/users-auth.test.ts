import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionSchema } from "#shared/schemas/session.ts";
import { z } from "#shared/zod.ts";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, buildRegistration, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("registration, login and tokens on $name", (target) => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
  });
  afterAll(() => app.close());

  const register = (payload: object) => app.inject({ method: "POST", url: "/api/users/register", payload });
  const login = (payload: object) => app.inject({ method: "POST", url: "/api/users/login", payload });

  it("makes the first account the admin and later ones regular users", async () => {
    const first = await register(buildRegistration());
    const second = await register(buildRegistration());
    expect(first.statusCode).toBe(201);
    expect(first.json().isAdmin).toBe(true);
    expect(second.json().isAdmin).toBe(false);
  });

  it("stores the wallet checksummed and never returns the password hash", async () => {
    const response = await register(buildRegistration({ walletAddress: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" }));
    const body = response.json();
    expect(body.walletAddress).toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    expect(body.isWalletVerified).toBe(false);
    expect(JSON.stringify(body)).not.toMatch(/password|hash|tokenVersion/i);
  });

  it.each([
    ["firstName", "First Name is required"],
    ["lastName", "Last Name is required"],
    ["email", "Email is required"],
    ["password", "Password is required"],
    ["walletAddress", "Wallet Address is required"],
  ])("refuses a missing %s with the spec's message", async (field, message) => {
    const input: Record<string, unknown> = { ...buildRegistration() };
    delete input[field];
    const response = await register(input);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(message);
    const blank = await register({ ...buildRegistration(), [field]: "  " });
    expect(blank.json().message).toBe(message);
  });

  it.each(["0x123", "70997970c51812dc3a010c7d01b50e0d17dc79c8aa", `0x${"g".repeat(40)}`])(
    "refuses the wallet address %s",
    async (walletAddress) => {
      const response = await register(buildRegistration({ walletAddress }));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("Wallet Address must be exactly 42 characters long");
    },
  );

  it("refuses an e-mail already registered in another case with 409", async () => {
    const input = buildRegistration({ email: "Case.Test@Example.com" });
    expect((await register(input)).statusCode).toBe(201);
    const again = await register({ ...buildRegistration(), email: "case.test@example.COM" });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: "An account with this email already exists" });
  });

  it("ignores privileged fields in the body", async () => {
    const response = await register({
      ...buildRegistration(),
      isAdmin: true,
      isBlocked: true,
      isAccountVerified: true,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ isAdmin: false, isBlocked: false, isAccountVerified: false });
  });

  it("logs in with the userInfo shape of the brief, e-mail in any case", async () => {
    const input = buildRegistration();
    await register(input);
    const response = await login({ email: input.email.toUpperCase(), password: input.password });
    expect(response.statusCode).toBe(200);
    const session = z.strictObject(sessionSchema.shape).parse(response.json());
    expect(session).toMatchObject({ _id: session.id, firstName: "Grace", isVerified: false, profilePhoto: null });
  });

  it("answers a wrong e-mail and a wrong password identically", async () => {
    const input = buildRegistration();
    await register(input);
    const wrongPassword = await login({ email: input.email, password: "not the password" });
    const wrongEmail = await login({ email: "nobody@example.com", password: input.password });
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongEmail.statusCode).toBe(401);
    expect(wrongPassword.json()).toEqual(wrongEmail.json());
  });

  it("gives login's validation messages", async () => {
    expect((await login({ password: "x" })).json().message).toBe("Email is required");
    expect((await login({ email: "a@b.co" })).json().message).toBe("Password is required");
  });

  describe("tokens", () => {
    const profile = (headers: Record<string, string>, id: string) =>
      app.inject({ method: "GET", url: `/api/users/profile/${id}`, headers });

    it("are required on member calls", async () => {
      const user = await signUp(app);
      const response = await app.inject({ method: "GET", url: `/api/users/profile/${user.id}` });
      expect(response.statusCode).toBe(401);
      expect((await profile(bearer(user), user.id)).statusCode).toBe(200);
    });

    it("refuse a token signed with another secret, another algorithm or none", async () => {
      const user = await signUp(app);
      const claims = { ver: 0 };
      const forged = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.id)
        .setIssuer("penchain")
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode("another-secret-another-secret-another-secret"));
      const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ sub: user.id, ver: 0, iss: "penchain" })).toString("base64url")}.`;
      const [header, , signature] = user.token.split(".");
      const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: user.id, ver: 5, iss: "penchain" })).toString("base64url")}.${signature}`;
      for (const token of [forged, unsigned, tampered, "garbage"]) {
        const response = await profile({ authorization: `Bearer ${token}` }, user.id);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ message: "Your session has ended. Please log in again." });
      }
    });

    it("refuse an expired token", async () => {
      const user = await signUp(app);
      const expired = await new SignJWT({ ver: 0 })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject(user.id)
        .setIssuer("penchain")
        .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
        .sign(new TextEncoder().encode("test-secret-that-is-long-enough-for-tests-0123456789"));
      expect((await profile({ authorization: `Bearer ${expired}` }, user.id)).statusCode).toBe(401);
    });
  });
});
