import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { DEV_ACCOUNT, HARDHAT_MNEMONIC } from "../../scripts/lib/dev-account.ts";

describe("the dev account npm start prints", () => {
  it("is the test mnemonic's account 1, and its key opens it", () => {
    const derived = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: 1 });
    expect(DEV_ACCOUNT.address).toBe(derived.address);
    expect(DEV_ACCOUNT.privateKey).toBe(
      `0x${Buffer.from(derived.getHdKey().privateKey as Uint8Array).toString("hex")}`,
    );
    expect(privateKeyToAccount(DEV_ACCOUNT.privateKey).address).toBe(DEV_ACCOUNT.address);
  });
});
