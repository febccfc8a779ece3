import { Box, Button, Container, Heading, Link, Stack, Text } from "@chakra-ui/react";
import { RouterLink } from "../../components/router-link.tsx";

export function HomeRoute() {
  return (
    <Box as="section" aria-labelledby="hero-heading" py={{ base: "16", md: "28" }}>
      <Container maxW="3xl">
        <Stack gap="6" textAlign="center" align="center">
          <Text color="teal.fg" fontWeight="semibold" letterSpacing="wide" textTransform="uppercase" fontSize="sm">
            Welcome to Penchain
          </Text>
          <Heading as="h1" id="hero-heading" size={{ base: "3xl", md: "5xl" }} lineHeight="1.15">
            Pen down your ideas by creating a blog
          </Heading>
          <Text color="fg.muted" fontSize="lg">
            {/* The promise is kept by the site's rules, which readers report against. */}
            <Link asChild color="fg.muted" textDecoration="underline">
              <RouterLink to="/rules">Your blog must be free from racism and unhealthy words.</RouterLink>
            </Link>
          </Text>
          <Button asChild colorPalette="teal" size="lg">
            <RouterLink to="/posts">Let's Explore</RouterLink>
          </Button>
        </Stack>
      </Container>
    </Box>
  );
}
