import { Box, Container, Flex, Link, Text } from "@chakra-ui/react";
import { useSiteSettings } from "../../lib/site-settings.ts";
import { RouterLink } from "../router-link.tsx";

const FOOTER_LINKS = [
  { label: "Home", to: "/" },
  { label: "Create Blog", to: "/create-post" },
  { label: "Blogs", to: "/posts" },
  { label: "Register", to: "/register" },
  { label: "Login", to: "/login" },
];

export function Footer() {
  const { siteName, siteDescription } = useSiteSettings();
  return (
    <Box as="footer" borderTopWidth="1px" mt="auto" bg="bg.subtle">
      <Container maxW="6xl" py="6">
        <Flex as="nav" aria-label="Footer" gap="4" wrap="wrap" justify="center" mb="3">
          {FOOTER_LINKS.map((link) => (
            <Link key={link.to} asChild color="fg.muted">
              <RouterLink to={link.to}>{link.label}</RouterLink>
            </Link>
          ))}
        </Flex>
        <Text textAlign="center" fontSize="sm" color="fg.muted">
          {siteName} · {siteDescription}
        </Text>
      </Container>
    </Box>
  );
}
