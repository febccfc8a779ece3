import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, hashMessage, keccak256, toHex } from "viem";

const MESSAGE = { raw: keccak256(toHex("a revision")) } as const;
const VALID = "0x1626ba7e";
const INVALID = "0xffffffff";

describe("OwnedSmartAccount (test helper, ERC-1271)", async () => {
  const { viem } = await network.create();
  const [owner, stranger] = await viem.getWalletClients();
  if (!owner || !stranger) throw new Error("Hardhat accounts are missing");

  it("accepts its owner's signature of a hash and refuses anyone else's or a malformed one", async () => {
    const account = await viem.deployContract("OwnedSmartAccount", [owner.account.address]);
    assert.equal(await account.read.owner(), getAddress(owner.account.address));
    const hash = hashMessage(MESSAGE);
    assert.equal(await account.read.isValidSignature([hash, await owner.signMessage({ message: MESSAGE })]), VALID);
    assert.equal(
      await account.read.isValidSignature([hash, await stranger.signMessage({ message: MESSAGE })]),
      INVALID,
    );
    assert.equal(await account.read.isValidSignature([hash, "0x1234"]), INVALID);
    assert.equal(await account.read.isValidSignature([hash, `0x${"00".repeat(65)}`]), INVALID);
  });
});
