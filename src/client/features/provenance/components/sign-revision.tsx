import { Button, HStack, Stack, Text } from "@chakra-ui/react";
import { SignTypedDataButton } from "../../wallet/public.tsx";
import { useProvenance } from "../api/get-provenance.ts";
import { useSignRevision } from "../api/sign-revision.ts";

/**
 * The author's "Sign this revision": shown only while the API hands them typed data to sign (their verified wallet,
 * the latest revision unsigned). Wallet code loads when the button is pressed. `onSkip` adds "Not now".
 */
export function SignRevision({
  postId,
  title,
  onSkip,
  onSigned,
}: {
  postId: string;
  /** The prompt after publishing names the post; the post's own page need not. */
  title?: string;
  onSkip?: () => void;
  onSigned?: () => void;
}) {
  const provenance = useProvenance(postId);
  const sign = useSignRevision();
  const toSign = provenance.data?.toSign;
  const revision = provenance.data?.latest;
  if (sign.isSuccess)
    return (
      <Text role="status" color="green.fg" fontSize="sm">
        Signed: revision {sign.data.revision} carries your wallet's signature.
      </Text>
    );
  if (!toSign || revision == null) return null;
  return (
    <Stack
      as="section"
      aria-label="Sign this revision"
      gap="2"
      borderWidth="1px"
      borderRadius="md"
      p="3"
      bg="bg.subtle"
      data-testid="sign-revision"
    >
      <Text fontSize="sm">
        {title ? `"${title}" is published as revision ${revision}. ` : `Revision ${revision} is not signed yet. `}
        Sign it with your wallet so anyone can check that you wrote it. It costs nothing and sends no transaction.
      </Text>
      <HStack gap="2" wrap="wrap" align="flex-start">
        <SignTypedDataButton
          label="Sign this revision"
          typedData={toSign}
          onSigned={async (signature) => {
            // A refusal (another wallet, already signed) is shown by the button, as a wallet's error is.
            await sign.mutateAsync({ postId, revision, signature });
            onSigned?.();
          }}
        />
        {onSkip && (
          <Button type="button" size="sm" variant="ghost" onClick={onSkip}>
            Not now
          </Button>
        )}
      </HStack>
    </Stack>
  );
}
