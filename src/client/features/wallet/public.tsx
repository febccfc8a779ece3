import { Button, type ButtonProps } from "@chakra-ui/react";
import { lazy, type ReactNode, Suspense, useState } from "react";

// The public surface of the wallet feature, and its only door: everything behind these imports (wagmi, viem's wallet parts, RainbowKit)
// lands in chunks that load when a screen needs a wallet, never for a reader.
const PayFeeIsland = lazy(() => import("./components/pay-fee.tsx"));
const RegisterWalletIsland = lazy(() => import("./components/register-wallet.tsx"));
const WalletLoginIsland = lazy(() => import("./components/wallet-login.tsx"));
const LinkWalletIsland = lazy(() => import("./components/link-wallet.tsx"));
const TipDialogIsland = lazy(() => import("./components/tip-dialog.tsx"));
const WalletSessionGuardIsland = lazy(() => import("./components/wallet-session-guard.tsx"));
const SignTypedDataIsland = lazy(() => import("./components/sign-typed-data.tsx"));

/** A plain button until clicked; then the wallet island, which carries the click out. */
function WalletGate({
  label,
  buttonProps,
  children,
}: {
  label: string;
  buttonProps?: ButtonProps;
  children: (close: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const button = (loading: boolean) => (
    <Button type="button" variant="outline" loading={loading} {...buttonProps} onClick={() => setOpen(true)}>
      {label}
    </Button>
  );
  if (!open) return button(false);
  return <Suspense fallback={button(true)}>{children(() => setOpen(false))}</Suspense>;
}

export const PayFee = (props: React.ComponentProps<typeof PayFeeIsland>) => (
  <Suspense fallback={<Button loading variant="outline" alignSelf="flex-start" aria-label="Loading the wallet" />}>
    <PayFeeIsland {...props} />
  </Suspense>
);

export const RegisterWalletButton = (props: React.ComponentProps<typeof RegisterWalletIsland>) => (
  <WalletGate label="Connect wallet" buttonProps={{ size: "sm", alignSelf: "flex-start" }}>
    {() => <RegisterWalletIsland {...props} />}
  </WalletGate>
);

export const WalletLoginButton = () => (
  <WalletGate label="Sign in with wallet">{() => <WalletLoginIsland />}</WalletGate>
);

export const LinkWalletButton = (props: React.ComponentProps<typeof LinkWalletIsland>) => (
  <WalletGate label={props.label} buttonProps={{ size: "sm", alignSelf: "flex-start" }}>
    {() => <LinkWalletIsland {...props} />}
  </WalletGate>
);

type TipProps = Omit<React.ComponentProps<typeof TipDialogIsland>, "onClose">;

/** An admin's ETH tip to a user, recorded as their reward. */
export const TipButton = (props: TipProps) => (
  <WalletGate label="Tip ETH" buttonProps={{ size: "xs", colorPalette: "yellow" }}>
    {(close) => <TipDialogIsland {...props} onClose={close} />}
  </WalletGate>
);

/** What a reader's tip to an author pays and where it is recorded: from a post of theirs, or from their profile. */
export const authorTip = (
  author: { id: string; name: string; walletAddress: string },
  from: { postId: string } | "profile",
): React.ComponentProps<typeof TipAuthorButton>["to"] => {
  const shownOn = from === "profile" ? "their profile" : "the post";
  return {
    name: author.name,
    walletAddress: author.walletAddress,
    recordAt: from === "profile" ? `/api/users/tips/${author.id}` : `/api/posts/${from.postId}/tips`,
    hashField: "txHash",
    note: `All of it goes to them; it shows on ${shownOn} once the server has checked it on the chain.`,
    recorded: "Thank you: your tip is recorded.",
  };
};

/** A reader's tip to an author: no wallet code loads until it is pressed. */
export const TipAuthorButton = (props: TipProps) => (
  <WalletGate label="Tip the author" buttonProps={{ size: "sm", colorPalette: "yellow" }}>
    {(close) => <TipDialogIsland {...props} onClose={close} />}
  </WalletGate>
);

/** EIP-712 typed data signed with the account's verified wallet: a plain button until pressed. */
export const SignTypedDataButton = (props: React.ComponentProps<typeof SignTypedDataIsland>) => (
  <WalletGate label={props.label} buttonProps={{ size: "sm", colorPalette: "teal", variant: "solid" }}>
    {() => <SignTypedDataIsland {...props} />}
  </WalletGate>
);

export type { TypedDataToSign } from "./components/sign-typed-data.tsx";

export const WalletSessionGuard = () => (
  <Suspense fallback={null}>
    <WalletSessionGuardIsland />
  </Suspense>
);

/** Create Blog remembers a paid, unused fee without loading wallet code. */
export { unusedPayment } from "./unused-payment.ts";
