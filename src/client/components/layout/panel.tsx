import { Box, Container } from "@chakra-ui/react";

/** The bordered, centred card that holds a single form (login, password, account screens). */
export const Panel = ({ children, width = "md" }: { children: React.ReactNode; width?: "md" | "lg" }) => (
  <Container maxW={width} py={{ base: "8", md: "14" }}>
    <Box borderWidth="1px" borderRadius="xl" p={{ base: "5", md: "8" }} bg="bg.panel" shadow="sm">
      {children}
    </Box>
  </Container>
);
