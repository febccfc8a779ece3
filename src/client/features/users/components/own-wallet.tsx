import { Badge, Box, Code, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { LinkWalletButton } from "../../wallet/public.tsx";
import { useReloadProfile } from "../api/profile.ts";

/** Only the owner sees the wallet; signing with it verifies it (or moves the account to another wallet). */
export function OwnWallet({ address, verified }: { address: string | null; verified: boolean }) {
  const reloadProfile = useReloadProfile();
  return (
    <Box as="section" aria-labelledby="wallet-heading" mt="6" borderWidth="1px" borderRadius="lg" p="4">
      <HStack gap="2" wrap="wrap" mb="2">
        <Heading as="h2" id="wallet-heading" size="md">
          Wallet
        </Heading>
        <Badge colorPalette={verified ? "green" : "orange"}>{verified ? "Verified wallet" : "Not verified"}</Badge>
      </HStack>
      <Stack gap="3">
        {address ? (
          <Code wordBreak="break-all" alignSelf="flex-start">
            {address}
          </Code>
        ) : (
          <Text color="fg.muted">No wallet yet.</Text>
        )}
        <Text fontSize="sm" color="fg.muted">
          {verified
            ? "You can sign in with this wallet and pay featured fees from it. Sign with another wallet to use that one instead."
            : "Sign a message with your wallet to prove it is yours; then you can sign in with it and pay featured fees from it."}
        </Text>
        <LinkWalletButton
          label={verified ? "Change wallet" : "Verify wallet"}
          verified={verified ? address : null}
          onLinked={(user) => reloadProfile(user.id)}
        />
      </Stack>
    </Box>
  );
}
