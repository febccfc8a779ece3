import { Box, Button, Container, Heading, Text } from "@chakra-ui/react";
import { RouterLink } from "../../components/router-link.tsx";

export function NotFoundRoute() {
  return (
    <Container maxW="3xl" py="12">
      <Box borderWidth="1px" borderRadius="lg" p="8" textAlign="center">
        <Heading as="h1" size="xl" mb="3">
          Page not found
        </Heading>
        <Text color="fg.muted" mb="5">
          There is no page at this address.
        </Text>
        <Button asChild colorPalette="teal">
          <RouterLink to="/">Go Home</RouterLink>
        </Button>
      </Box>
    </Container>
  );
}
