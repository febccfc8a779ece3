import type { AddressInfo } from "node:net";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Stats } from "#shared/schemas/stats.ts";
import type { App } from "../../../src/server/app.ts";
import { readOf, visitorOf } from "../../../src/server/services/stats/read-from-request.ts";
import { buildTestApp, TEST_JWT_SECRET, twoInstances } from "../../support/app.ts";
import { createCategory, createPost, likePost } from "../../support/content.ts";
import { databaseTargets, pgliteTarget } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;
/** Built by `npm run build` (npm test builds first): the server-rendered post page records its own read. */
const CLIENT_DIR = path.resolve(import.meta.dirname, "../../../dist/client");

const PHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const TABLET =
  "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const total = (stats: Stats, key: string) => stats.totals.find((metric) => metric.key === key)?.value;
const rank = (list: { name: string; views: number; visitors: number }[], name: string) =>
  list.find((item) => item.name === name);

function beacon(app: App, body: object, headers: Record<string, string> = {}, address = "203.0.113.7") {
  return app.inject({
    method: "POST",
    url: "/api/stats/beacon",
    payload: body,
    headers: { "user-agent": DESKTOP, ...headers },
    remoteAddress: address,
  });
}

describe.each(databaseTargets)("stats on $name", (target) => {
  let app: App;
  let admin: Session;
  let writer: Session;
  let other: Session;
  let category: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open(), { clientDir: CLIENT_DIR });
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    category = (await createCategory(app, admin)).title;
    [writer, other] = [await signUp(app), await signUp(app)];
  }, 60_000);
  afterAll(() => app.close());

  const get = async (url: string, who: Session) => app.inject({ method: "GET", url, headers: bearer(who) });
  const statsOf = async (url: string, who: Session) => (await get(url, who)).json() as Stats;

  it("counts reads by day, source, device and campaign, each person once a day", async () => {
    const post = await createPost(app, writer, category, { title: "Counted" });
    const page = `/posts/${post.id}`;
    // Two readers from two sources, one of them three times; a campaign; a phone and a tablet; the site itself.
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await beacon(app, {
            kind: "post",
            id: post.id,
            url: page,
            referrer: "https://news.ycombinator.com/item?id=1",
          })
        ).statusCode,
      ).toBe(204);
    }
    await beacon(
      app,
      {
        kind: "post",
        id: post.id,
        url: `${page}?utm_source=Mastodon&utm_medium=social&utm_campaign=Launch`,
        referrer: "https://www.mastodon.social/@a",
      },
      { "user-agent": PHONE },
      "198.51.100.2",
    );
    await beacon(app, { kind: "post", id: post.id, url: page }, { "user-agent": TABLET }, "198.51.100.3");
    await beacon(
      app,
      { kind: "post", id: post.id, url: page, referrer: "http://penchain.test/posts" },
      { "user-agent": TABLET, host: "penchain.test" },
      "198.51.100.4",
    );
    // A profile read counts for its owner, apart from posts' views.
    await beacon(app, { kind: "profile", id: writer.id, url: `/profile/${writer.id}` }, {}, "198.51.100.5");
    // The server-rendered page counts itself, with the browser's referrer and the page's campaign.
    const rendered = await app.inject({
      method: "GET",
      url: `${page}?utm_source=newsletter&utm_campaign=May`,
      headers: { "user-agent": DESKTOP, referer: "https://duckduckgo.com/" },
      remoteAddress: "198.51.100.6",
    });
    expect(rendered.statusCode).toBe(200);
    await app.stats.flush();

    const stats = await statsOf(`/api/stats/posts/${post.id}`, writer);
    expect(total(stats, "views")).toBe("7");
    expect(total(stats, "visitors")).toBe("5");
    expect(rank(stats.sources, "news.ycombinator.com")).toMatchObject({ views: 3, visitors: 1 });
    expect(rank(stats.sources, "mastodon.social")).toMatchObject({ views: 1, visitors: 1 });
    expect(rank(stats.sources, "duckduckgo.com")).toMatchObject({ views: 1 });
    // Direct, and the site's own page: no source.
    expect(rank(stats.sources, "")).toMatchObject({ views: 2 });
    expect(rank(stats.devices, "phone")?.views).toBe(1);
    expect(rank(stats.devices, "tablet")?.views).toBe(2);
    expect(rank(stats.devices, "desktop")?.views).toBe(4);
    expect(stats.campaigns).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: "mastodon", medium: "social", name: "Launch", views: 1 }),
        expect.objectContaining({ source: "newsletter", medium: "", name: "May", views: 1 }),
      ]),
    );
    const today = stats.points.at(-1);
    expect(today?.values.views).toBe("7");
    expect(stats.points).toHaveLength(31);

    const mine = await statsOf("/api/stats/author", writer);
    expect(total(mine, "views")).toBe("7");
    expect(total(mine, "profileViews")).toBe("1");
    // People new to the author today: the five readers and the profile's visitor.
    expect(total(mine, "visitors")).toBe("6");
    expect(mine.topPosts[0]).toMatchObject({ id: post.id, name: "Counted", views: 7 });
    expect(mine.readingNow).toBe(6);
  });

  it("does not count readers who ask not to be tracked, bots, drafts or the unknown", async () => {
    const post = await createPost(app, other, category, { title: "Private reader" });
    await beacon(app, { kind: "post", id: post.id, url: "/" }, { dnt: "1" });
    await beacon(app, { kind: "post", id: post.id, url: "/" }, { "sec-gpc": "1" });
    await beacon(app, { kind: "post", id: post.id, url: "/" }, { "user-agent": BOT });
    await beacon(app, { kind: "post", id: post.id, url: "/" }, { "user-agent": "" });
    await beacon(app, { kind: "post", id: "00000000-0000-4000-8000-000000000000", url: "/" });
    expect((await beacon(app, { kind: "post", id: "not-a-uuid", url: "/" })).statusCode).toBe(400);
    await app.stats.flush();
    expect(total(await statsOf(`/api/stats/posts/${post.id}`, other), "views")).toBe("0");
    const rows = await app.db.execute(sql`select count(*)::int as n from stats_rollups where target_id = ${post.id}`);
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
  });

  it("counts a person again the next day, under the next day's salt, and keeps no address", async () => {
    const post = await createPost(app, writer, category, { title: "Two days" });
    const yesterday = new Date(Date.now() - 86_400_000);
    const request = {
      kind: "post" as const,
      targetId: post.id,
      referrer: undefined,
      url: "/",
      userAgent: DESKTOP,
      address: "192.0.2.9",
      host: undefined,
      optedOut: false,
    };
    expect(visitorOf(TEST_JWT_SECRET, yesterday, "192.0.2.9", DESKTOP)).not.toBe(
      visitorOf(TEST_JWT_SECRET, new Date(), "192.0.2.9", DESKTOP),
    );
    for (const at of [yesterday, yesterday, new Date(), new Date()]) {
      const read = readOf(TEST_JWT_SECRET, request, at);
      if (read) app.stats.record(read);
    }
    await app.stats.flush();
    const stats = await statsOf(`/api/stats/posts/${post.id}`, writer);
    expect(total(stats, "views")).toBe("4");
    expect(total(stats, "visitors")).toBe("2");
    expect(stats.points.at(-1)?.values.visitors).toBe("1");
    expect(stats.points.at(-2)?.values.visitors).toBe("1");
    const kept = JSON.stringify(await app.db.execute(sql`select * from stats_visitors`));
    expect(kept).not.toContain("192.0.2.9");
    expect(kept).not.toContain("Chrome");
  });

  it("stores hostile referrers and campaigns cut and without line breaks", async () => {
    const post = await createPost(app, writer, category, { title: "Hostile" });
    const campaign = `<script>alert(1)</script>\r\nSet-Cookie: x=1${"A".repeat(10_000)}`;
    const query = `utm_source=%0d%0aevil&utm_campaign=${encodeURIComponent(campaign)}`;
    // The app's beacon is small; the page itself takes any address.
    expect((await beacon(app, { kind: "post", id: post.id, url: `/posts/${post.id}?${query}` })).statusCode).toBe(400);
    const page = await app.inject({
      method: "GET",
      url: `/posts/${post.id}?${query}`,
      headers: { "user-agent": DESKTOP, referer: "javascript:alert(document.cookie)" },
    });
    expect(page.statusCode).toBe(200);
    await beacon(
      app,
      { kind: "post", id: post.id, url: "/", referrer: "https://<img src=x>.example/" },
      {},
      "192.0.2.20",
    );
    await app.stats.flush();
    const stats = await statsOf(`/api/stats/posts/${post.id}`, writer);
    const [only] = stats.campaigns;
    expect(only?.name.startsWith("<script>alert(1)</script>Set-Cookie: x=1")).toBe(true);
    expect(only?.name.length).toBe(100);
    expect(only?.source).toBe("evil");
    expect(stats.sources.map((source) => source.name)).toEqual([""]);
  });

  it("shows each his own: another author's post is refused, the site's stats are the admins'", async () => {
    const post = await createPost(app, writer, category, { title: "Mine" });
    expect((await get(`/api/stats/posts/${post.id}`, other)).statusCode).toBe(403);
    expect((await get(`/api/stats/posts/${post.id}.csv`, other)).statusCode).toBe(403);
    const asAdmin = await get(`/api/stats/posts/${post.id}`, admin);
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect((await get("/api/stats/site", writer)).statusCode).toBe(403);
    expect((await app.inject({ method: "GET", url: "/api/stats/author" })).statusCode).toBe(401);
    expect((await get("/api/stats/author?from=2026-05-02&to=2026-05-01", writer)).json().message).toBe(
      "The period must start before it ends",
    );
    expect((await get("/api/stats/author?from=2020-01-01&interval=hour", writer)).statusCode).toBe(400);
  });

  it("adds up the audience, tips and the site's numbers, against the period before, and the CSV says the same", async () => {
    const post = await createPost(app, writer, category, { title: "Liked" });
    await likePost(app, other, post.id);
    await app.inject({
      method: "POST",
      url: "/api/comments",
      payload: { postId: post.id, description: "Nice one" },
      headers: bearer(other),
    });
    await app.inject({
      method: "PUT",
      url: "/api/users/follow",
      payload: { followId: writer.id },
      headers: bearer(other),
    });
    await app.inject({
      method: "PUT",
      url: "/api/users/unfollow",
      payload: { unFollowId: writer.id },
      headers: bearer(other),
    });
    await app.inject({
      method: "PUT",
      url: "/api/users/follow",
      payload: { followId: writer.id },
      headers: bearer(admin),
    });
    // A fediverse follower comes and goes (as the inbox's Follow and Undo write it), and another stays.
    for (const who of ["https://social.example/users/a", "https://social.example/users/b"]) {
      await app.db.execute(sql`insert into remote_followers (actor, follower_uri, inbox, domain)
        values (${writer.id}, ${who}, ${`${who}/inbox`}, 'social.example')`);
    }
    await app.db.execute(sql`delete from remote_followers where follower_uri = 'https://social.example/users/a'`);
    const mine = await statsOf("/api/stats/author?interval=day", writer);
    expect(total(mine, "fediverseFollowersGained")).toBe("2");
    expect(total(mine, "fediverseFollowersLost")).toBe("1");
    expect(total(mine, "likes")).toBe("1");
    expect(total(mine, "comments")).toBe("1");
    expect(total(mine, "followersGained")).toBe("2");
    expect(total(mine, "followersLost")).toBe("1");
    expect(mine.totals.find((metric) => metric.key === "likes")?.previous).toBe("0");

    const site = await statsOf("/api/stats/site?interval=day", admin);
    expect(Number(total(site, "registrations"))).toBe(3);
    expect(Number(total(site, "postsPublished"))).toBeGreaterThanOrEqual(5);
    expect(site.now.map((gauge) => gauge.key)).toEqual(["deliveriesQueued", "deliveriesFailing"]);

    const csv = await get("/api/stats/site.csv?interval=day", admin);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    const [header, ...lines] = csv.body.trimEnd().split("\r\n");
    expect(header?.split(",")).toEqual([
      "period_start",
      ...site.series.map((s) => (s.unit === "wei" ? `${s.key}_wei` : s.key)),
    ]);
    expect(lines).toHaveLength(site.points.length);
    expect(lines.at(-1)?.split(",")).toEqual([
      site.points.at(-1)?.at,
      ...site.series.map((s) => site.points.at(-1)?.values[s.key]),
    ]);
  });

  it("tells an author with a page open how many people are reading now, through the event stream", async () => {
    const post = await createPost(app, other, category, { title: "Live" });
    await app.listen({ host: "127.0.0.1", port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const controller = new AbortController();
    const response = await fetch(`${url}/api/notifications/stream`, {
      headers: bearer(other),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    await beacon(app, { kind: "post", id: post.id, url: "/" }, {}, "192.0.2.30");
    await beacon(app, { kind: "post", id: post.id, url: "/" }, {}, "192.0.2.31");
    await app.stats.flush();
    await app.notificationHub.refreshReading();
    while (!/event: reading\ndata: \{"count":2\}/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL)("stats across two instances", () => {
  it("counts exactly once between them", async () => {
    const postgres = databaseTargets.find((t) => t.name === "postgres");
    if (!postgres) return;
    const { one, two, close } = await twoInstances(postgres.open);
    try {
      const admin = await signUp(one);
      await makeAdmin(one, admin.id);
      const writer = await signUp(one);
      const post = await createPost(one, writer, (await createCategory(one, admin)).title);
      // The same person on both instances, and two others, in parallel.
      await Promise.all([
        beacon(one, { kind: "post", id: post.id, url: "/" }, {}, "192.0.2.40"),
        beacon(two, { kind: "post", id: post.id, url: "/" }, {}, "192.0.2.40"),
        beacon(one, { kind: "post", id: post.id, url: "/" }, {}, "192.0.2.41"),
        beacon(two, { kind: "post", id: post.id, url: "/" }, {}, "192.0.2.42"),
      ]);
      await Promise.all([one.stats.flush(), two.stats.flush()]);
      const stats = (
        await one.inject({ method: "GET", url: `/api/stats/posts/${post.id}`, headers: bearer(writer) })
      ).json();
      expect(total(stats, "views")).toBe("4");
      expect(total(stats, "visitors")).toBe("3");
    } finally {
      await close();
    }
  });
});

describe("stats switched off", () => {
  it("records no read at all with STATS=off", async () => {
    const app = await buildTestApp(await pgliteTarget.open(), { env: { STATS: "off" } });
    try {
      const admin = await signUp(app);
      await makeAdmin(app, admin.id);
      const writer = await signUp(app);
      const post = await createPost(app, writer, (await createCategory(app, admin)).title);
      expect((await beacon(app, { kind: "post", id: post.id, url: "/" })).statusCode).toBe(204);
      await app.stats.flush();
      const rows = await app.db.execute(sql`select count(*)::int as n from stats_rollups`);
      expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);
    } finally {
      await app.close();
    }
  });
});
