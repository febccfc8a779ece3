import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { buildTestApp } from "../../support/app.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("site settings on $name", (target) => {
  let app: App;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
  });
  afterAll(() => app.close());

  it("are public to read, with defaults", async () => {
    const response = await app.inject({ method: "GET", url: "/api/settings" });
    expect(response.json()).toEqual({ siteName: "Penchain", siteDescription: "A blog made with blockchain." });
  });

  it("are written by admins only, with clear messages", async () => {
    const [admin, user] = [await signUp(app), await signUp(app)];
    await makeAdmin(app, admin.id);
    const body = { siteName: "Chain Notes", siteDescription: "Notes from the chain" };
    expect(
      (await app.inject({ method: "PUT", url: "/api/settings", payload: body, headers: bearer(user) })).statusCode,
    ).toBe(403);
    const blank = await app.inject({
      method: "PUT",
      url: "/api/settings",
      payload: { ...body, siteName: " " },
      headers: bearer(admin),
    });
    expect(blank.json().message).toBe("Site name is required");
    expect(
      (await app.inject({ method: "PUT", url: "/api/settings", payload: body, headers: bearer(admin) })).json(),
    ).toEqual(body);
    expect((await app.inject({ method: "GET", url: "/api/settings" })).json()).toEqual(body);
  });

  it("show admins the system status, and no one else", async () => {
    const [admin, user] = [await signUp(app), await signUp(app)];
    await makeAdmin(app, admin.id);
    await app.inject({ method: "POST", url: "/api/users/forget-password-token", payload: { email: user.email } });
    // The reset mail is sent after the answer (so every address takes as long to answer): wait for it.
    await app.mailer.idle();
    expect((await app.inject({ method: "GET", url: "/api/settings/status", headers: bearer(user) })).statusCode).toBe(
      403,
    );
    const status = (await app.inject({ method: "GET", url: "/api/settings/status", headers: bearer(admin) })).json();
    expect(status).toMatchObject({
      database: target.name,
      chain: { id: 31337, name: "Hardhat" },
      feeWei: "10000000000000000",
      minConfirmations: 1,
      mail: { transport: "outbox", queued: 0 },
    });
    expect(status.mail.sent).toBeGreaterThanOrEqual(1);
  });
});
