import { Box, Container, Heading, Text } from "@chakra-ui/react";

/** A screen whose feature has not been built yet says so plainly instead of pretending to work. */
export function ComingRoute({ title }: { title: string }) {
  return (
    <Container maxW="3xl" py="12">
      <Box borderWidth="1px" borderRadius="lg" p="8" textAlign="center">
        <Heading as="h1" size="xl" mb="3">
          {title}
        </Heading>
        <Text color="fg.muted">This screen is coming soon.</Text>
      </Box>
    </Container>
  );
}
