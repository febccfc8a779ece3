import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../../../src/server/app.ts";
import { approvedRepliers } from "../../../src/server/db/schema.ts";
import { BLOCKLIST_HEADER } from "../../../src/server/services/federation/blocklists.ts";
import { isBlockedDomain } from "../../../src/server/services/federation/domains.ts";
import { receiveReply } from "../../../src/server/services/federation/replies.ts";
import { buildTestApp } from "../../support/app.ts";
import { createCategory, createPost } from "../../support/content.ts";
import { databaseTargets } from "../../support/databases.ts";
import { bearer, makeAdmin, signUp } from "../../support/users.ts";

describe.each(databaseTargets)("shared domain block lists on $name", (target) => {
  let app: App;
  let admin: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    app = await buildTestApp(await target.open());
    admin = await signUp(app);
    await makeAdmin(app, admin.id);
  });
  afterAll(() => app.close());

  const importCsv = (csv: string, who = admin) =>
    app.inject({
      method: "POST",
      url: "/api/moderation/domain-blocks",
      headers: { ...bearer(who), "content-type": "text/csv" },
      payload: csv,
    });

  it("imports Mastodon's CSV, skipping and naming what it cannot take, and exports it safe for a spreadsheet", async () => {
    const csv = [
      "\uFEFF#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate",
      'evil.example,suspend,true,true,"Spam, and abuse",false',
      'quiet.example,silence,false,false,"=HYPERLINK(""http://x.example"")",false',
      "*.hidden.example,suspend,false,false,,true",
      "penchain.test,suspend,false,false,,false",
      "not a domain!,suspend,false,false,,false",
      "=cmd|' /C calc'!A0,suspend,false,false,,false",
      "calm.example,noop,false,false,,false",
      "odd.example,obliterate,false,false,,false",
      "",
    ].join("\r\n");
    const response = await importCsv(csv);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      imported: 2,
      skipped: [
        { line: 4, reason: "an obfuscated domain names no domain" },
        { line: 5, reason: "the site's own domain" },
        { line: 6, reason: "not a domain" },
        { line: 7, reason: "not a domain" },
        { line: 8, reason: "noop" },
        { line: 9, reason: 'unknown severity "obliterate"' },
      ],
    });
    const listed = await app.inject({ method: "GET", url: "/api/federation/blocked-domains", headers: bearer(admin) });
    expect(listed.json().map((entry: { domain: string; severity: string }) => [entry.domain, entry.severity])).toEqual([
      ["evil.example", "suspend"],
      ["quiet.example", "silence"],
    ]);
    const exported = await app.inject({
      method: "GET",
      url: "/api/moderation/domain-blocks.csv",
      headers: bearer(admin),
    });
    expect(exported.headers["content-type"]).toContain("text/csv");
    expect(exported.headers["content-disposition"]).toContain("attachment");
    expect(exported.body.split("\n")).toEqual([
      "#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate",
      'evil.example,suspend,false,false,"Spam, and abuse",false',
      `quiet.example,silence,false,false,"'=HYPERLINK(""http://x.example"")",false`,
      "",
    ]);
    // What one site exported, another imports as it was.
    expect((await importCsv(exported.body)).json()).toEqual({ imported: 2, skipped: [] });
  });

  it("refuses a suspended domain's activities and holds a silenced domain's replies for the author", async () => {
    expect(await isBlockedDomain(app.db, "evil.example")).toBe(true);
    expect(await isBlockedDomain(app.db, "sub.evil.example")).toBe(true);
    expect(await isBlockedDomain(app.db, "quiet.example")).toBe(false);
    const author = await signUp(app);
    const post = await createPost(app, author, (await createCategory(app, admin)).title);
    const actorUri = "https://quiet.example/users/loud";
    await app.db.insert(approvedRepliers).values({ userId: author.id, actorUri });
    const reply = await receiveReply(app.db, post.id, {
      uri: "https://quiet.example/notes/1",
      actorUri,
      authorName: "Loud",
      authorHandle: "@loud@quiet.example",
      authorAvatar: null,
      url: null,
      html: "<p>Hello there</p>",
      publishedAt: null,
    });
    expect(reply?.status).toBe("pending");
  });

  it("answers a list whose every line is skipped, or that has no line, with what it skipped", async () => {
    const skippedOnly = [
      BLOCKLIST_HEADER,
      "calm.example,noop,false,false,,false",
      "*.hidden.example,suspend,false,false,,true",
      "penchain.test,suspend,false,false,,false",
      "<script>,suspend,false,false,,false",
    ].join("\n");
    const response = await importCsv(skippedOnly);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      imported: 0,
      skipped: [
        { line: 2, reason: "noop" },
        { line: 3, reason: "an obfuscated domain names no domain" },
        { line: 4, reason: "the site's own domain" },
        { line: 5, reason: "not a domain" },
      ],
    });
    for (const empty of [BLOCKLIST_HEADER, "\n\n"]) {
      const answer = await importCsv(empty);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ imported: 0, skipped: [] });
    }
  });

  it("lets only admins import or export, and refuses a list too long", async () => {
    const user = await signUp(app);
    expect((await importCsv("a.example,suspend", user)).statusCode).toBe(403);
    const long = Array.from({ length: 10_002 }, (_, index) => `d${index}.example,noop`).join("\n");
    expect((await importCsv(long)).statusCode).toBe(400);
  });
});
