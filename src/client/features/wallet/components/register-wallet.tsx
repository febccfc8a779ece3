import { Badge, Button, HStack, Stack, Text } from "@chakra-ui/react";
import { ConnectButton } from "@rainbow-me/rainbowkit";
import { useEffect, useState } from "react";
import { isAddressEqual } from "viem";
import { useAccount, useConfig } from "wagmi";
import { getAccount } from "wagmi/actions";
import type { SiweProof } from "#shared/schemas/siwe.ts";
import type { PublicConfig } from "#shared/schemas/system.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { usePublicConfig } from "../../../lib/config.ts";
import { signWalletProof } from "../api/sign-wallet-proof.ts";
import { parseWalletError } from "../parse-wallet-error.ts";
import { useConnectThen } from "../use-connect-then.ts";
import { walletIsland } from "./wallet-providers.tsx";

interface Props {
  /** Prefills the Wallet Address field with the connected account. */
  onAddress: (address: string) => void;
  /** A signature by `address` that verifies that wallet with the registration. */
  onProof: (proof: SiweProof, address: string) => void;
}

/** Register's "Connect wallet": RainbowKit connects, the address fills in, and signing verifies it at once. */
export default walletIsland(RegisterWalletPanel);

function RegisterWalletPanel({ onAddress, onProof }: Props) {
  const site = usePublicConfig().data as PublicConfig;
  const config = useConfig();
  const { address } = useAccount();
  // The click on "Connect wallet" that loaded this island: open RainbowKit unless a wallet is connected already.
  useConnectThen({ startWith: () => {} });
  const [signedBy, setSignedBy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (address) onAddress(address);
  }, [address, onAddress]);

  async function sign() {
    setError(null);
    const { address: signer } = getAccount(config);
    if (!signer) return;
    try {
      const statement = "Verify this wallet for my new Penchain account.";
      onProof(await signWalletProof(config, { address: signer, chainId: site.chainId, statement }), signer);
      setSignedBy(signer);
    } catch (caught) {
      setError(parseWalletError(caught, { chainName: site.chainName }));
    }
  }

  const verified = Boolean(address && signedBy && isAddressEqual(address as `0x${string}`, signedBy as `0x${string}`));
  return (
    <Stack gap="2">
      <HStack gap="2" wrap="wrap">
        <ConnectButton label="Connect wallet" showBalance={false} accountStatus="address" chainStatus="none" />
        {address &&
          (verified ? (
            <Badge colorPalette="green">Verified by your signature</Badge>
          ) : (
            <Button type="button" size="sm" variant="outline" onClick={() => void sign()}>
              Sign to verify this wallet
            </Button>
          ))}
      </HStack>
      {address && !verified && (
        <Text fontSize="sm" color="fg.muted">
          Signing costs nothing; it proves the wallet is yours, so you can sign in with it and pay from it.
        </Text>
      )}
      <ErrorLines error={error} />
    </Stack>
  );
}
