import { Button, Field, HStack, Input, Stack, Text } from "@chakra-ui/react";
import { ConnectButton } from "@rainbow-me/rainbowkit";
import { useState } from "react";
import { useConfig } from "wagmi";
import { getAccount } from "wagmi/actions";
import type { PublicConfig } from "#shared/schemas/system.ts";
import type { PrivateUser } from "#shared/schemas/users.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { usePublicConfig } from "../../../lib/config.ts";
import { useLinkWallet } from "../api/link-wallet.ts";
import { signWalletProof } from "../api/sign-wallet-proof.ts";
import { parseWalletError } from "../parse-wallet-error.ts";
import { useConnectThen } from "../use-connect-then.ts";
import { walletIsland } from "./wallet-providers.tsx";

/** The profile owner's "Verify wallet" / "Change wallet": sign with the connected wallet to make it the verified one. */
export default walletIsland(LinkWalletPanel);

export interface LinkWalletProps {
  label: string;
  /** The account's verified wallet, if any: replacing it asks for the current password too. */
  verified: string | null;
  onLinked?: (user: PrivateUser) => void;
}

function LinkWalletPanel({ label, verified, onLinked }: LinkWalletProps) {
  const site = usePublicConfig().data as PublicConfig;
  const config = useConfig();
  const link = useLinkWallet(onLinked);
  const [error, setError] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  const [currentPassword, setCurrentPassword] = useState("");

  async function verify() {
    const { address } = getAccount(config);
    if (!address) return;
    // Asked before the wallet is, so nobody signs for nothing (the server checks it again).
    const replacing = verified !== null && verified.toLowerCase() !== address.toLowerCase();
    if (replacing && !currentPassword) {
      setError("Current Password is required");
      return;
    }
    setError(null);
    setSigning(true);
    try {
      const statement = "Verify this wallet for my Penchain account.";
      const proof = await signWalletProof(config, { address, chainId: site.chainId, statement });
      await link.mutateAsync({ ...proof, ...(replacing ? { currentPassword } : {}) });
    } catch (caught) {
      setError(parseWalletError(caught, { chainName: site.chainName }));
    } finally {
      setSigning(false);
    }
  }

  const connect = useConnectThen({ startWith: () => void verify() });

  return (
    <Stack gap="2" align="flex-start">
      {verified && (
        <Field.Root invalid={error === "Current Password is required"} maxW="sm">
          <Field.Label>Current Password</Field.Label>
          <Input
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
          <Field.HelperText>
            A verified wallet signs in without a password, so changing it to another asks for yours.
          </Field.HelperText>
        </Field.Root>
      )}
      <HStack gap="2" wrap="wrap">
        <ConnectButton showBalance={false} accountStatus="address" chainStatus="none" />
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={signing || !connect.ready}
          onClick={() => connect.run(() => void verify())}
        >
          {signing ? "Sign in your wallet…" : label}
        </Button>
      </HStack>
      {link.isSuccess && (
        <Text role="status" color="green.fg" fontSize="sm">
          Wallet verified.
        </Text>
      )}
      <ErrorLines error={error} />
    </Stack>
  );
}
