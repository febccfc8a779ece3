// Hardhat's development accounts come from this mnemonic (test keys only; the tests derive theirs from it).
export const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";

/**
 * The account `npm start` offers for MetaMask: the mnemonic's account 1, written out because deriving it would load
 * viem's mnemonic code (and its word lists) on every start.
 */
export const DEV_ACCOUNT = {
  address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  privateKey: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
} as const;
