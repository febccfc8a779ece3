import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { receiveReply } from "../../../src/server/services/federation/replies.ts";
import { screen } from "../../../src/server/services/moderation/filter.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, buildRegistration, makeAdmin, signUp } from "../../support/users.ts";

type Session = Awaited<ReturnType<typeof signUp>>;

describe.each(databaseTargets)("the filter of new text on $name", (target) => {
  let app: App;
  let admin: Session;
  let author: Session;
  let reader: Session;
  let category: string;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
    [author, reader] = [await signUp(app), await signUp(app)];
    category = (await createCategory(app, admin)).title;
    const terms = await app.inject({
      method: "PUT",
      url: "/api/moderation/terms",
      headers: bearer(admin),
      payload: {
        terms: [
          { term: "Casino", action: "hold" },
          { term: "crypto scam", action: "refuse" },
        ],
      },
    });
    expect(terms.statusCode).toBe(200);
    expect(terms.json().terms).toEqual([
      { term: "casino", action: "hold" },
      { term: "crypto scam", action: "refuse" },
    ]);
  }, 60_000);
  afterAll(() => app.close());

  const comment = (who: Session, postId: string, description: string) =>
    app.inject({ method: "POST", url: "/api/comments", headers: bearer(who), payload: { postId, description } });
  const publicComments = async (postId: string) =>
    (await app.inject({ method: "GET", url: `/api/posts/${postId}/comments` }))
      .json()
      .items.map((item: { description: string }) => item.description);

  it("holds listed words in leetspeak and look-alike letters, and lets real words that contain them through", async () => {
    const verdict = async (text: string) => (await screen(app.deps, { text })).action;
    for (const flagged of ["what a load of sh1t", "fuuuuck this", "you b!tch", "go to the c4s1no"])
      expect(await verdict(flagged), flagged).toBe("hold");
    for (const clean of [
      "Scunthorpe United won at home",
      "an assessment of the classic cocktail",
      "Penistone and Sussex",
      "my therapist likes shiitake mushrooms",
      "a cumulative analysis of grapes",
      "occasional casinos",
    ])
      expect(await verdict(clean), clean).toBe("allow");
    expect(await verdict("beware this crypt0 sc4m")).toBe("refuse");
  });

  it("reads a number as a number: digits alone are not leetspeak, and a site term with digits matches as written", async () => {
    const verdict = async (text: string) => (await screen(app.deps, { text })).action;
    for (const clean of ["Route 455", "Counted reads 455f68", "Release 5.5.0 fixed 455 bugs", "call 7490 4551"])
      expect(await verdict(clean), clean).toBe("allow");
    for (const flagged of ["what a 4ss", "such sh1t"]) expect(await verdict(flagged), flagged).toBe("hold");

    const terms = await app.inject({ method: "GET", url: "/api/moderation/terms", headers: bearer(admin) });
    const withNumber = [...terms.json().terms, { term: "1488", action: "hold" }, { term: "isis", action: "hold" }];
    const put = (list: unknown[]) =>
      app.inject({ method: "PUT", url: "/api/moderation/terms", headers: bearer(admin), payload: { terms: list } });
    expect((await put(withNumber)).statusCode).toBe(200);
    try {
      expect(await screen(app.deps, { text: "they wrote 1488 on the wall" })).toMatchObject({
        action: "hold",
        terms: ["1488"],
      });
      for (const clean of ["order 21488 shipped", "ia8 is not it", "Route 1515"])
        expect(await verdict(clean), clean).toBe("allow");
      expect(await verdict("join 1s1s")).toBe("hold");
      expect(await verdict("go to the c4s1no")).toBe("hold");
    } finally {
      expect((await put(terms.json().terms)).statusCode).toBe(200);
    }
  });

  it("keeps a held comment out of public places until a moderator approves it; refuses a refused word", async () => {
    const post = await createPost(app, author, category, { title: "Open thread" });
    const held = await comment(reader, post.id, "Visit my casino tonight");
    expect(held.statusCode).toBe(201);
    expect(held.json().waitingForReview).toBe(true);
    expect(await publicComments(post.id)).not.toContain("Visit my casino tonight");
    const count = async () => (await app.inject({ method: "GET", url: `/api/posts/${post.id}` })).json().commentsCount;
    expect(await count()).toBe(0);
    const own = await app.inject({ method: "GET", url: `/api/comments/${held.json().id}`, headers: bearer(reader) });
    expect(own.json()).toMatchObject({ waitingForReview: true });

    const refused = await comment(reader, post.id, "This is a CRYPTO SCAM, friends");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      { path: "description", message: expect.stringContaining("does not allow") },
    ]);

    const queue = (
      await app.inject({ method: "GET", url: "/api/moderation/reports?kind=comment", headers: bearer(admin) })
    ).json();
    const item = queue.items.find((entry: { target: { id: string } }) => entry.target.id === held.json().id);
    expect(item).toMatchObject({
      state: "held",
      reasons: [{ reason: "Held by the filter", count: 1 }],
      notes: ["Matched: casino"],
    });
    const approved = await app.inject({
      method: "POST",
      url: "/api/moderation/actions",
      headers: bearer(admin),
      payload: { target: { kind: "comment", id: held.json().id }, action: "restore", rule: "other" },
    });
    expect(approved.statusCode).toBe(200);
    expect(await publicComments(post.id)).toContain("Visit my casino tonight");
    expect(await count()).toBe(1);
  });

  it("holds a post with a listed word from lists and feeds, tells its author, and publishes it once approved", async () => {
    const post = await createPost(app, author, category, {
      title: "Honest review",
      description: "<p>This product is total sh1t.</p>",
    });
    const listed = async () =>
      (await app.inject({ method: "GET", url: `/api/posts?category=${encodeURIComponent(category)}` }))
        .json()
        .items.some((item: { id: string }) => item.id === post.id);
    expect(await listed()).toBe(false);
    expect((await app.inject({ method: "GET", url: "/rss.xml" })).body).not.toContain(post.id);
    const own = await app.inject({ method: "GET", url: `/api/posts/${post.id}`, headers: bearer(author) });
    expect(own.json().moderation).toEqual({ state: "held", reason: "Waiting for review" });
    const refused = await app.inject({
      method: "PUT",
      url: `/api/posts/${post.id}`,
      headers: bearer(author),
      payload: { title: "A crypto scam", description: "<p>Fine</p>", category },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0].path).toBe("title");
    const approved = await app.inject({
      method: "POST",
      url: "/api/moderation/actions",
      headers: bearer(admin),
      payload: { target: { kind: "post", id: post.id }, action: "restore", rule: "other" },
    });
    expect(approved.statusCode).toBe(200);
    expect(await listed()).toBe(true);
  });

  it("refuses a listed word in a name or a bio, which cannot wait for review", async () => {
    const registered = await app.inject({
      method: "POST",
      url: "/api/users/register",
      payload: buildRegistration({ firstName: "Sh1thead" }),
    });
    expect(registered.statusCode).toBe(400);
    expect(registered.json().issues[0].path).toBe("firstName");
    const profile = await app.inject({
      method: "PUT",
      url: "/api/users/",
      headers: bearer(reader),
      payload: {
        firstName: reader.firstName,
        lastName: reader.lastName,
        email: reader.email,
        bio: "Ask me about casino nights",
      },
    });
    expect(profile.statusCode).toBe(400);
    expect(profile.json().issues[0].path).toBe("bio");
  });

  it("holds a reply from the fediverse with a listed word, and drops one with a refused word", async () => {
    const post = await createPost(app, author, category, { title: "Federated" });
    const reply = (uri: string, html: string) =>
      receiveReply(app.db, post.id, {
        uri,
        actorUri: "https://elsewhere.example/users/troll",
        authorName: "Troll",
        authorHandle: "@troll@elsewhere.example",
        authorAvatar: null,
        url: null,
        html,
        publishedAt: null,
      });
    expect(await reply("https://elsewhere.example/notes/1", "<p>what a load of sh1t</p>")).not.toBeNull();
    expect(await reply("https://elsewhere.example/notes/2", "<p>join my crypto scam</p>")).toBeNull();
    const queue = (
      await app.inject({ method: "GET", url: "/api/moderation/reports?kind=remote-reply", headers: bearer(admin) })
    ).json();
    expect(queue.items.map((item: { state: string }) => item.state)).toEqual(["held"]);
  });

  it("refuses terms that are not words, and lets only admins see or change them", async () => {
    const bad = await app.inject({
      method: "PUT",
      url: "/api/moderation/terms",
      headers: bearer(admin),
      payload: { terms: [{ term: "[?]|\\", action: "hold" }] },
    });
    expect(bad.statusCode).toBe(400);
    for (const who of [reader, author])
      expect((await app.inject({ method: "GET", url: "/api/moderation/terms", headers: bearer(who) })).statusCode).toBe(
        403,
      );
  });
});
