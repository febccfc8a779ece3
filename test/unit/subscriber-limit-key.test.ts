import { describe, expect, it } from "vitest";
import { subscriberLimitKey } from "../../src/server/services/subscribers/address-key.ts";

describe("the key a subscriber address's limit counts under", () => {
  it("is one mailbox however its tags, case and spelling differ", () => {
    const spellings = [
      "ann@example.org",
      "ann+1@example.org",
      "Ann+news@Example.ORG",
      "ann+1+2+3@example.org",
      "ann++@example.org",
      "ann+@example.org.",
      '"ann+x"@example.org',
      '"ann\\+x"@example.org',
      "ａｎｎ＋ｘ＠ｅｘａｍｐｌｅ．ｏｒｇ",
      "an\u200bn+z@example.org",
      "  ann+z@example.org  ",
    ];
    expect(new Set(spellings.map(subscriberLimitKey))).toEqual(new Set(["ann@example.org"]));
  });

  it("is one Gmail mailbox however its dots fall and whichever of Google's domains it names", () => {
    const spellings = ["ann.lee@gmail.com", "annlee@gmail.com", "a.n.n.l.e.e+x@GMAIL.com", "An.Nlee@googlemail.com"];
    expect(new Set(spellings.map(subscriberLimitKey))).toEqual(new Set(["annlee@gmail.com"]));
  });

  it("keeps other mailboxes apart", () => {
    const keys = ["ann@example.org", "anne@example.org", "ann@example.com", "+ann@example.org", "ann@sub.example.org"];
    expect(new Set(keys.map(subscriberLimitKey)).size).toBe(keys.length);
  });

  it("reads the domain, not an @ in the local part, and spells a Unicode domain as DNS does", () => {
    expect(subscriberLimitKey('"a@evil.test"+x@example.org')).toBe("a@eviltest@example.org");
    expect(subscriberLimitKey("ann+x@BÜCHER.example")).toBe("ann@xn--bcher-kva.example");
    expect(subscriberLimitKey("ann+x@xn--bcher-kva.example")).toBe("ann@xn--bcher-kva.example");
    expect(subscriberLimitKey("no-at-sign")).toBe("no-at-sign");
  });
});
