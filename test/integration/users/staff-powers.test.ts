import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { moderationActions } from "../../../src/server/db/schema.ts";
import { buildTestApp, generousLimits } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
const WINDOW = 15 * 60_000;

describe.each(databaseTargets)("what staff may do on $name", (target) => {
  let app: App;
  let admin: Session;
  let moderator: Session;
  let second: Session;
  let third: Session;
  let category: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), {
      rateLimits: {
        ...generousLimits,
        reports: { max: 2, timeWindow: WINDOW },
        appeals: { max: 2, timeWindow: WINDOW },
      },
    });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    [moderator, second, third] = [await signUp(app), await signUp(app), await signUp(app)];
    for (const who of [moderator, second, third])
      expect((await call("PUT", `/api/users/role/${who.id}`, admin, { moderator: true })).statusCode).toBe(200);
    category = (await createCategory(app, admin)).title;
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  function call(method: "GET" | "PUT" | "POST", url: string, who: Session | null, payload?: object) {
    return app.inject({ method, url, payload, headers: who ? bearer(who) : {} });
  }
  const act = (who: Session, kind: string, id: string, action: string) =>
    call("POST", "/api/moderation/actions", who, { target: { kind, id }, action, rule: "spam", note: "" });
  const login = (who: Session) =>
    app.inject({ method: "POST", url: "/api/users/login", payload: { email: who.email, password: who.password } });

  it("keeps an admin's block and a suspension apart: restoring the account leaves the admin's block", async () => {
    const user = await signUp(app);
    expect((await call("PUT", `/api/users/block-user/${user.id}`, admin)).statusCode).toBe(200);
    expect((await act(moderator, "user", user.id, "suspend")).statusCode).toBe(200);
    expect((await act(moderator, "user", user.id, "restore")).statusCode).toBe(200);
    expect((await login(user)).statusCode).toBe(403);
    const listed = (await call("GET", "/api/users?limit=100", admin)).json().items;
    expect(listed.find((row: { id: string }) => row.id === user.id).isBlocked).toBe(true);
  });

  it("an admin's Unblock does not lift a suspension: the account stays out, moderators can still restore it", async () => {
    const user = await signUp(app);
    expect((await act(moderator, "user", user.id, "suspend")).statusCode).toBe(200);
    expect((await call("PUT", `/api/users/unblock-user/${user.id}`, admin)).statusCode).toBe(200);
    expect((await login(user)).statusCode).toBe(403);
    expect((await call("GET", "/api/reports/mine", user)).statusCode).not.toBe(200);
    expect((await act(moderator, "user", user.id, "restore")).statusCode).toBe(200);
    expect((await login(user)).statusCode).toBe(200);
  });

  it("leaves actions on staff to admins: a moderator cannot suspend, limit or warn a moderator, nor touch an admin's things", async () => {
    for (const action of ["suspend", "limit", "warn"])
      expect((await act(moderator, "user", second.id, action)).statusCode).toBe(403);
    const adminPost = await createPost(app, admin, category, { title: "An admin's post" });
    const moderatorPost = await createPost(app, second, category, { title: "A moderator's post" });
    expect((await act(moderator, "user", admin.id, "warn")).statusCode).toBe(403);
    expect((await act(moderator, "post", adminPost.id, "hide")).statusCode).toBe(403);
    expect((await act(moderator, "post", moderatorPost.id, "remove")).statusCode).toBe(403);
    expect((await call("GET", `/api/posts/${adminPost.id}`, null)).statusCode).toBe(200);
    expect((await call("GET", `/api/posts/${moderatorPost.id}`, null)).statusCode).toBe(200);
    // An admin decides about staff.
    expect((await act(admin, "user", second.id, "warn")).statusCode).toBe(200);
    expect((await act(admin, "post", moderatorPost.id, "hide")).statusCode).toBe(200);
  });

  it("refuses a moderator dismissing the reports about their own post", async () => {
    const post = await createPost(app, third, category, { title: "Reported moderator post" });
    const reporter = await signUp(app);
    const filed = await call("POST", "/api/reports", reporter, { kind: "post", id: post.id, rule: "spam", note: "" });
    expect(filed.statusCode).toBe(201);
    expect((await act(third, "post", post.id, "dismiss")).statusCode).toBe(403);
    const queue = (await call("GET", "/api/moderation/reports", admin)).json().items;
    expect(queue.some((item: { target: { id: string } }) => item.target.id === post.id)).toBe(true);
  });

  it("lets one of two moderators deciding an appeal at once act; the other is told it is decided (409)", async () => {
    const author = await signUp(app);
    const post = await createPost(app, author, category, { title: "Appealed at once" });
    expect((await act(admin, "post", post.id, "hide")).statusCode).toBe(200);
    const [decision] = await app.db
      .select({ id: moderationActions.id })
      .from(moderationActions)
      .where(and(eq(moderationActions.targetId, post.id), eq(moderationActions.action, "hide")));
    const appealed = await call("POST", "/api/appeals", author, { actionId: decision?.id, text: "Please look again." });
    expect(appealed.statusCode).toBe(201);
    const decide = (who: Session) =>
      call("POST", `/api/moderation/appeals/${decision?.id}`, who, { outcome: "reversed" });
    const answers = await Promise.all([decide(moderator), decide(second)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const restores = await app.db
      .select()
      .from(moderationActions)
      .where(and(eq(moderationActions.targetId, post.id), eq(moderationActions.action, "restore")));
    expect(restores).toHaveLength(1);
  });

  it("counts appeals apart from reports: filing reports leaves one's appeals their own limit", async () => {
    const author = await signUp(app);
    const post = await createPost(app, author, category, { title: "Hidden, then appealed" });
    expect((await act(admin, "post", post.id, "hide")).statusCode).toBe(200);
    const [decision] = await app.db
      .select({ id: moderationActions.id })
      .from(moderationActions)
      .where(eq(moderationActions.targetId, post.id));
    const others = [await createPost(app, admin, category), await createPost(app, admin, category)];
    for (const other of others) {
      const filed = await call("POST", "/api/reports", author, { kind: "post", id: other.id, rule: "spam", note: "" });
      expect(filed.statusCode).toBe(201);
    }
    const extra = await createPost(app, admin, category);
    expect(
      (await call("POST", "/api/reports", author, { kind: "post", id: extra.id, rule: "spam", note: "" })).statusCode,
    ).toBe(429);
    const appealed = await call("POST", "/api/appeals", author, { actionId: decision?.id, text: "Please look again." });
    expect(appealed.statusCode).toBe(201);
  });
});
