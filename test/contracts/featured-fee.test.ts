import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress, keccak256, parseEther, toHex, zeroAddress } from "viem";

const FEE = parseEther("0.01");
const REF = keccak256(toHex("draft-1"));

describe("FeaturedFee", async () => {
  const { viem, networkHelpers } = await network.create();
  const publicClient = await viem.getPublicClient();
  const wallets = await viem.getWalletClients();
  const [owner, author, stranger] = [0, 1, 2].map((index) => {
    const wallet = wallets[index];
    if (!wallet) throw new Error(`Hardhat account #${index} is missing`);
    return wallet;
  }) as [
    NonNullable<(typeof wallets)[number]>,
    NonNullable<(typeof wallets)[number]>,
    NonNullable<(typeof wallets)[number]>,
  ];

  async function deploy() {
    const fee = await viem.deployContract("FeaturedFee", [FEE]);
    const asAuthor = await viem.getContractAt("FeaturedFee", fee.address, { client: { wallet: author } });
    const asStranger = await viem.getContractAt("FeaturedFee", fee.address, { client: { wallet: stranger } });
    return { fee, asAuthor, asStranger };
  }
  const balanceOf = (address: `0x${string}`) => publicClient.getBalance({ address });

  describe("deployment", () => {
    it("records the deployer as owner and the initial fee", async () => {
      const { fee } = await networkHelpers.loadFixture(deploy);
      assert.equal(await fee.read.owner(), getAddress(owner.account.address));
      assert.equal(await fee.read.fee(), FEE);
    });

    it("refuses a zero fee", async () => {
      const probe = await networkHelpers.loadFixture(deploy);
      await viem.assertions.revertWithCustomError(viem.deployContract("FeaturedFee", [0n]), probe.fee, "ZeroFee");
    });
  });

  describe("payFeature", () => {
    it("accepts the exact fee and emits FeaturePaid with payer, ref and amount", async () => {
      const { fee, asAuthor } = await networkHelpers.loadFixture(deploy);
      await viem.assertions.emitWithArgs(asAuthor.write.payFeature([REF], { value: FEE }), fee, "FeaturePaid", [
        getAddress(author.account.address),
        REF,
        FEE,
      ]);
      assert.equal(await balanceOf(fee.address), FEE);
    });

    it("accepts more than the fee and keeps all of it", async () => {
      const { fee, asAuthor } = await networkHelpers.loadFixture(deploy);
      const paid = FEE + 1n;
      await viem.assertions.emitWithArgs(asAuthor.write.payFeature([REF], { value: paid }), fee, "FeaturePaid", [
        getAddress(author.account.address),
        REF,
        paid,
      ]);
      assert.equal(await balanceOf(fee.address), paid);
    });

    it("reverts with FeeTooLow when one wei short", async () => {
      const { fee, asAuthor } = await networkHelpers.loadFixture(deploy);
      await viem.assertions.revertWithCustomErrorWithArgs(
        asAuthor.write.payFeature([REF], { value: FEE - 1n }),
        fee,
        "FeeTooLow",
        [FEE - 1n, FEE],
      );
    });
  });

  describe("plain transfers", () => {
    it("are payments with a zero ref", async () => {
      const { fee } = await networkHelpers.loadFixture(deploy);
      const zeroRef = `0x${"00".repeat(32)}` as const;
      await viem.assertions.emitWithArgs(author.sendTransaction({ to: fee.address, value: FEE }), fee, "FeaturePaid", [
        getAddress(author.account.address),
        zeroRef,
        FEE,
      ]);
    });

    it("revert with FeeTooLow below the fee", async () => {
      const { fee } = await networkHelpers.loadFixture(deploy);
      await viem.assertions.revertWithCustomErrorWithArgs(
        author.sendTransaction({ to: fee.address, value: 1n }),
        fee,
        "FeeTooLow",
        [1n, FEE],
      );
    });
  });

  describe("setFee", () => {
    it("lets the owner change the fee and emits FeeChanged", async () => {
      const { fee } = await networkHelpers.loadFixture(deploy);
      const newFee = parseEther("0.02");
      await viem.assertions.emitWithArgs(fee.write.setFee([newFee]), fee, "FeeChanged", [FEE, newFee]);
      assert.equal(await fee.read.fee(), newFee);
    });

    it("applies the new fee to later payments", async () => {
      const { fee, asAuthor } = await networkHelpers.loadFixture(deploy);
      await fee.write.setFee([parseEther("0.02")]);
      await viem.assertions.revertWithCustomError(asAuthor.write.payFeature([REF], { value: FEE }), fee, "FeeTooLow");
    });

    it("refuses anyone but the owner", async () => {
      const { fee, asStranger } = await networkHelpers.loadFixture(deploy);
      await viem.assertions.revertWithCustomError(asStranger.write.setFee([1n]), fee, "NotOwner");
    });

    it("refuses a zero fee", async () => {
      const { fee } = await networkHelpers.loadFixture(deploy);
      await viem.assertions.revertWithCustomError(fee.write.setFee([0n]), fee, "ZeroFee");
    });
  });

  describe("withdraw", () => {
    it("sends the whole balance to the given address and emits Withdrawn", async () => {
      const { fee, asAuthor } = await networkHelpers.loadFixture(deploy);
      await asAuthor.write.payFeature([REF], { value: FEE });
      await asAuthor.write.payFeature([REF], { value: FEE });
      const to = stranger.account.address;
      const before = await balanceOf(to);
      await viem.assertions.emitWithArgs(fee.write.withdraw([to]), fee, "Withdrawn", [getAddress(to), 2n * FEE]);
      assert.equal(await balanceOf(to), before + 2n * FEE);
      assert.equal(await balanceOf(fee.address), 0n);
    });

    it("refuses anyone but the owner", async () => {
      const { fee, asAuthor, asStranger } = await networkHelpers.loadFixture(deploy);
      await asAuthor.write.payFeature([REF], { value: FEE });
      await viem.assertions.revertWithCustomError(
        asStranger.write.withdraw([stranger.account.address]),
        fee,
        "NotOwner",
      );
    });

    it("refuses the zero address", async () => {
      const { fee, asAuthor } = await networkHelpers.loadFixture(deploy);
      await asAuthor.write.payFeature([REF], { value: FEE });
      await viem.assertions.revertWithCustomError(fee.write.withdraw([zeroAddress]), fee, "ZeroAddress");
    });

    it("refuses when there is nothing to withdraw", async () => {
      const { fee } = await networkHelpers.loadFixture(deploy);
      await viem.assertions.revertWithCustomError(
        fee.write.withdraw([owner.account.address]),
        fee,
        "NothingToWithdraw",
      );
    });

    it("reverts with WithdrawFailed when the receiver refuses ether, keeping the balance", async () => {
      const refuser = await viem.deployContract("EtherRefuser", [FEE]);
      const feeAddress = await refuser.read.feeContract();
      const fee = await viem.getContractAt("FeaturedFee", feeAddress, { client: { wallet: author } });
      await fee.write.payFeature([REF], { value: FEE });
      await viem.assertions.revertWithCustomError(refuser.write.withdrawTo([refuser.address]), fee, "WithdrawFailed");
      assert.equal(await balanceOf(feeAddress), FEE);
    });
  });
});
