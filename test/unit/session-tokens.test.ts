import { afterEach, describe, expect, it, vi } from "vitest";
import { createSessionTokens } from "../../src/server/services/core/session-tokens.ts";

const user = { id: "5f0c6f0e-8d2a-4c39-9a37-1a4f3f3b2c11", tokenVersion: 3 };

describe("session tokens", () => {
  afterEach(() => vi.useRealTimers());

  it("remember a verified token, and stop answering for it once it expires", async () => {
    const tokens = createSessionTokens("a secret of at least thirty-two characters", "60s");
    const token = await tokens.sign(user);
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ userId: user.id, version: 3 });
    // Verified once: the second answer is the remembered one.
    expect(await tokens.verify(token)).toBe(first);
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ["Date"] });
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it("never take a token for a remembered one it differs from, nor one signed with another secret", async () => {
    const tokens = createSessionTokens("a secret of at least thirty-two characters");
    const token = await tokens.sign(user);
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const raised = Buffer.from(JSON.stringify({ ...claims, ver: 4 })).toString("base64url");
    expect(await tokens.verify(`${header}.${raised}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${token}x`)).toBeNull();
    const other = createSessionTokens("another secret of thirty-two characters!!");
    expect(await other.verify(token)).toBeNull();
  });
});
