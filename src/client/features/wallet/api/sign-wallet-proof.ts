import { createSiweMessage } from "viem/siwe";
import type { Config } from "wagmi";
import { signMessage } from "wagmi/actions";
import { type SiweProof, siweNonceSchema } from "#shared/schemas/siwe.ts";
import { api } from "../../../lib/api-client.ts";

const VALID_FOR_MS = 10 * 60 * 1000;

/** A nonce the server issued for one Sign-In with Ethereum message. */
export const getSiweNonce = async () => (await api("/api/auth/siwe/nonce", siweNonceSchema)).nonce;

/**
 * Asks the wallet to sign a Sign-In with Ethereum message (EIP-4361) for this site, on a nonce the server issued
 * for one use. The server checks every field, then trusts the signer.
 */
export async function signWalletProof(
  config: Config,
  { address, chainId, statement }: { address: `0x${string}`; chainId: number; statement: string },
): Promise<SiweProof> {
  const nonce = await getSiweNonce();
  const now = new Date();
  const message = createSiweMessage({
    domain: window.location.host,
    uri: window.location.origin,
    address,
    chainId,
    nonce,
    statement,
    version: "1",
    issuedAt: now,
    expirationTime: new Date(now.getTime() + VALID_FOR_MS),
  });
  return { message, signature: await signMessage(config, { account: address, message }) };
}
