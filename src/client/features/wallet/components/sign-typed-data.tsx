import { Button, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import { useConfig } from "wagmi";
import { signTypedData } from "wagmi/actions";
import type { PublicConfig } from "#shared/schemas/system.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { usePublicConfig } from "../../../lib/config.ts";
import { parseWalletError } from "../parse-wallet-error.ts";
import { useConnectThen } from "../use-connect-then.ts";
import { useWalletSteps } from "../use-wallet-steps.ts";
import { walletIsland } from "./wallet-providers.tsx";

/** EIP-712 typed data as an API hands it over (JSON: numbers, hex strings). */
export interface TypedDataToSign {
  domain: Record<string, unknown>;
  types: Record<string, { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

export interface SignTypedDataProps {
  label: string;
  typedData: TypedDataToSign;
  /** Called with the wallet's signature; what it throws is shown like a wallet's error. */
  onSigned: (signature: `0x${string}`) => Promise<void>;
}

/** Signs typed data with the account's verified wallet, on the site's chain; starts at once (the click loaded it). */
export default walletIsland(SignTypedDataPanel);

function SignTypedDataPanel({ label, typedData, onSigned }: SignTypedDataProps) {
  const site = usePublicConfig().data as PublicConfig;
  const config = useConfig();
  const steps = useWalletSteps(site);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function sign() {
    setError(null);
    setBusy(true);
    try {
      const account = await steps.prepare();
      // The API's JSON is the typed data viem expects; its literal types cannot be known here.
      const signature = await signTypedData(config, { account, ...(typedData as Parameters<typeof signTypedData>[1]) });
      await onSigned(signature);
    } catch (caught) {
      setError(parseWalletError(caught, { chainName: site.chainName }));
    } finally {
      setBusy(false);
    }
  }

  const connect = useConnectThen({ startWith: () => void sign() });
  return (
    <Stack gap="2" align="flex-start">
      <Button
        type="button"
        size="sm"
        colorPalette="teal"
        loading={busy}
        loadingText="Sign in your wallet…"
        disabled={!connect.ready}
        onClick={() => connect.run(() => void sign())}
      >
        {label}
      </Button>
      {steps.step && (
        <Text role="status" fontSize="sm" color="fg.muted">
          {steps.step}
        </Text>
      )}
      <ErrorLines error={error} />
    </Stack>
  );
}
