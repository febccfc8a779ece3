import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { databaseTargets } from "../../support/databases.ts";
import { type SmtpServer, startSmtpServer } from "../../support/smtp.ts";
import { bearer, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("passwords and verification on $name", (target) => {
  let app: App;
  let smtp: SmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await buildTestApp(await target.open(), { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const login = (email: string, password: string) =>
    app.inject({ method: "POST", url: "/api/users/login", payload: { email, password } });
  const me = (session: { id: string; token: string }) =>
    app.inject({ method: "GET", url: `/api/users/profile/${session.id}`, headers: bearer(session) });
  const linkIn = (raw: string, route: string) => {
    const match = raw.match(new RegExp(`http://penchain\\.test/${route}/([A-Za-z0-9_-]+)`));
    if (!match?.[1]) throw new Error(`no ${route} link in mail`);
    return match[1];
  };
  const requestReset = async (email: string) => {
    const response = await app.inject({ method: "POST", url: "/api/users/forget-password-token", payload: { email } });
    expect(response.statusCode).toBe(200);
    return response.json();
  };
  const reset = (token: string, password: string) =>
    app.inject({ method: "PUT", url: "/api/users/reset-password", payload: { token, password } });

  describe("changing the password", () => {
    it("ends earlier sessions and answers with a fresh one", async () => {
      const user = await signUp(app);
      const response = await app.inject({
        method: "PUT",
        url: "/api/users/password",
        payload: { password: "a brand new secret", currentPassword: user.password },
        headers: bearer(user),
      });
      expect(response.statusCode).toBe(200);
      const fresh = response.json();
      expect((await me(user)).statusCode).toBe(401);
      expect((await me(fresh)).statusCode).toBe(200);
      expect((await login(user.email, user.password)).statusCode).toBe(401);
      expect((await login(user.email, "a brand new secret")).statusCode).toBe(200);
    });

    it("gives the spec's message for an empty password", async () => {
      const user = await signUp(app);
      const response = await app.inject({
        method: "PUT",
        url: "/api/users/password",
        payload: { password: "" },
        headers: bearer(user),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("Password is required");
    });

    it("asks for the current password, so a stolen session alone cannot change it", async () => {
      const user = await signUp(app);
      const change = (payload: object) =>
        app.inject({ method: "PUT", url: "/api/users/password", payload, headers: bearer(user) });
      const missing = await change({ password: "a brand new secret" });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        message: "Current Password is required",
        issues: [{ path: "currentPassword", message: "Current Password is required" }],
      });
      const wrong = await change({ password: "a brand new secret", currentPassword: "not my password" });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().message).toBe("Current Password is incorrect");
      expect((await login(user.email, user.password)).statusCode).toBe(200);
      expect((await me(user)).statusCode).toBe(200);
    });
  });

  describe("resetting a forgotten password", () => {
    it("answers known and unknown e-mails the same, and mails a link only to the known one", async () => {
      const user = await signUp(app);
      const known = await requestReset(user.email);
      const unknown = await requestReset("nobody-here@example.com");
      expect(known).toEqual(unknown);
      expect(known).toEqual({ message: "Email is successfully sent to your email. Verify it within 10 minutes." });
      const mail = await smtp.mailTo(user.email);
      expect(mail.decoded).toContain("Reset your Penchain password");
      expect(mail.decoded).toMatch(/Content-Type: text\/html/);
      expect(linkIn(mail.decoded, "reset-password")).toHaveLength(43);
      expect(smtp.received.some((message) => message.to.includes("nobody-here@example.com"))).toBe(false);
    });

    it("sets the new password once, and ends every earlier session", async () => {
      const user = await signUp(app);
      await requestReset(user.email);
      const token = linkIn((await smtp.mailTo(user.email)).decoded, "reset-password");
      const first = await reset(token, "reset password 1");
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ message: "Password Reset Successfully" });
      expect((await reset(token, "reset password 2")).statusCode).toBe(400);
      expect((await login(user.email, "reset password 1")).statusCode).toBe(200);
      expect((await me(user)).statusCode).toBe(401);
    });

    it("lets exactly one of two parallel uses of a token win", async () => {
      const user = await signUp(app);
      await requestReset(user.email);
      const token = linkIn((await smtp.mailTo(user.email)).decoded, "reset-password");
      const results = await Promise.all([reset(token, "parallel one 111"), reset(token, "parallel two 222")]);
      expect(results.map((result) => result.statusCode).sort()).toEqual([200, 400]);
    });

    it("refuses a token after 10 minutes", async () => {
      const user = await signUp(app);
      await requestReset(user.email);
      const token = linkIn((await smtp.mailTo(user.email)).decoded, "reset-password");
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60 * 1000 + 1000 });
      const response = await reset(token, "too late password");
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("This reset link is invalid, used or expired. Please request a new one.");
    });

    it("revokes an older token when a new one is requested", async () => {
      const user = await signUp(app);
      await requestReset(user.email);
      const older = linkIn((await smtp.mailTo(user.email)).decoded, "reset-password");
      smtp.received.length = 0;
      await requestReset(user.email);
      const newer = linkIn((await smtp.mailTo(user.email)).decoded, "reset-password");
      expect((await reset(older, "older token pass")).statusCode).toBe(400);
      expect((await reset(newer, "newer token pass")).statusCode).toBe(200);
    });
  });

  describe("verifying the account", () => {
    const requestVerification = (session: { token: string }) =>
      app.inject({ method: "POST", url: "/api/users/generate-verify-email-token", headers: bearer(session) });
    const verify = (session: { token: string }, token: string) =>
      app.inject({ method: "PUT", url: "/api/users/verify-account", payload: { token }, headers: bearer(session) });

    it("mails a link, never returns the token, and verifies once", async () => {
      const user = await signUp(app);
      const response = await requestVerification(user);
      expect(response.statusCode).toBe(200);
      const token = linkIn((await smtp.mailTo(user.email)).decoded, "verify-account");
      expect(response.body).not.toContain(token);
      const verified = await verify(user, token);
      expect(verified.statusCode).toBe(200);
      expect(verified.json().isAccountVerified).toBe(true);
      expect((await verify(user, token)).statusCode).toBe(400);
      expect((await login(user.email, user.password)).json().isVerified).toBe(true);
      expect((await requestVerification(user)).json().message).toBe("Your account is already verified");
    });

    it("refuses another user's token without using it up", async () => {
      const [owner, thief] = [await signUp(app), await signUp(app)];
      await requestVerification(owner);
      const token = linkIn((await smtp.mailTo(owner.email)).decoded, "verify-account");
      expect((await verify(thief, token)).statusCode).toBe(400);
      expect((await verify(owner, token)).statusCode).toBe(200);
    });

    it("clears verification when the e-mail changes", async () => {
      const user = await signUp(app);
      await requestVerification(user);
      await verify(user, linkIn((await smtp.mailTo(user.email)).decoded, "verify-account"));
      const updated = await app.inject({
        method: "PUT",
        url: "/api/users",
        payload: {
          firstName: "G",
          lastName: "H",
          email: `new-${user.email}`,
          bio: "bio",
          currentPassword: user.password,
        },
        headers: bearer(user),
      });
      expect(updated.json().isAccountVerified).toBe(false);
    });

    it("changes the e-mail only with the current password, and tells the old address", async () => {
      const user = await signUp(app);
      const update = (extra: object) =>
        app.inject({
          method: "PUT",
          url: "/api/users",
          payload: { firstName: "G", lastName: "H", email: `moved-${user.email}`, bio: "bio", ...extra },
          headers: bearer(user),
        });
      const missing = await update({});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe("Current Password is required");
      expect((await update({ currentPassword: "wrong password" })).json().message).toBe(
        "Current Password is incorrect",
      );
      expect((await login(`moved-${user.email}`, user.password)).statusCode).toBe(401);

      const moved = await update({ currentPassword: user.password });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ email: `moved-${user.email}`, isAccountVerified: false });
      const notice = await smtp.mailTo(user.email);
      expect(notice.decoded).toContain(`changed to moved-${user.email}`);
      // Other fields change without the password.
      const renamed = await app.inject({
        method: "PUT",
        url: "/api/users",
        payload: { firstName: "Ada", lastName: "H", email: `MOVED-${user.email}`, bio: "bio" },
        headers: bearer(user),
      });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json().firstName).toBe("Ada");
    });
  });

  describe("logging out", () => {
    it("ends this session on the server and no other", async () => {
      const user = await signUp(app);
      const other = (await login(user.email, user.password)).json();
      const out = await app.inject({ method: "POST", url: "/api/users/logout", headers: bearer(user) });
      expect(out.statusCode).toBe(200);
      expect((await me(user)).statusCode).toBe(401);
      expect((await me(user)).json().message).toBe("Your session has ended. Please log in again.");
      expect((await me(other)).statusCode).toBe(200);
      const again = await app.inject({ method: "POST", url: "/api/users/logout", headers: bearer(user) });
      expect(again.statusCode).toBe(401);
    });

    it("needs a session", async () => {
      expect((await app.inject({ method: "POST", url: "/api/users/logout" })).statusCode).toBe(401);
    });
  });
});
