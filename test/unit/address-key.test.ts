import { describe, expect, it } from "vitest";
import { addressKeyOf, parsedAddressKey as parsed } from "../../src/server/plugins/rate-limits.ts";

describe("addressKeyOf", () => {
  const addresses = [
    "127.0.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "10.20.30.40",
    // Forms a forwarded header may carry: not canonical, so parsed (octal, hex, short, leading zeros).
    "0177.0.0.1",
    "0x7f.0.0.1",
    "127.1",
    "010.0.0.1",
    "256.1.1.1",
    "::ffff:192.0.2.7",
    "2001:db8:1:2:3:4:5:6",
    "2001:0db8:0001:0002::",
    "::1",
    "",
    "not an address",
    "1.2.3.4\r\nX-Evil: 1",
  ];

  it("keys every address as parsing it would, the first time and again", () => {
    for (const ip of addresses) expect(addressKeyOf(ip), ip).toBe(parsed(ip));
    for (const ip of addresses) expect(addressKeyOf(ip), ip).toBe(parsed(ip));
    // The parser's own answers: a /64, a mapped address as IPv4, non-canonical IPv4 normalised, the rest as it is.
    expect(addressKeyOf("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKeyOf("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressKeyOf("0177.0.0.1")).toBe("127.0.0.1");
    expect(addressKeyOf("010.0.0.1")).toBe("8.0.0.1");
    expect(addressKeyOf("1.2.3.4\r\nX-Evil: 1")).toBe("1.2.3.4\r\nX-Evil: 1");
  });

  it("keeps answering rightly past the cache's bound (a flood of distinct IPv6 addresses)", () => {
    for (let i = 0; i < 12_000; i++) addressKeyOf(`2001:db8:${(i >> 8).toString(16)}:${(i & 255).toString(16)}::1`);
    expect(addressKeyOf("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(addressKeyOf("2001:db8:2e:ff::9")).toBe("2001:db8:2e:ff::/64");
  });
});
