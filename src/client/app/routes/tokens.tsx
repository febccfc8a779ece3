import { Container } from "@chakra-ui/react";
import { TokensScreen } from "../../features/tokens/components/tokens-screen.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";

export function TokensRoute() {
  usePageTitle("API tokens");
  return (
    <Container maxW="3xl" py="8">
      <TokensScreen />
    </Container>
  );
}
