import { Box, Button, Container, Heading, Text } from "@chakra-ui/react";
import { Component, type ReactNode } from "react";

/** Whether the screen at `address` failed to render. */
interface Failure {
  failed: boolean;
  address: string;
}

/**
 * A screen that fails to render (its chunk gone after a deploy, a bug) shows this in its place, with the bar and the
 * footer still there, rather than leaving the whole page blank. Another address shows its own page (the boundary
 * forgets the failure; not a key, which would show the loading spinner where the page being left stays until the next
 * is in). A screen whose chunk failed stays failed until the reload, as React.lazy keeps the failure.
 */
export class ScreenErrorBoundary extends Component<{ address: string; children: ReactNode }, Failure> {
  override state: Failure = { failed: false, address: this.props.address };

  static getDerivedStateFromProps({ address }: { address: string }, state: Failure): Partial<Failure> | null {
    return address === state.address ? null : { failed: false, address };
  }

  static getDerivedStateFromError(): Partial<Failure> {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Container maxW="3xl" py="12">
        <Box role="alert" borderWidth="1px" borderRadius="lg" p="8" textAlign="center">
          <Heading as="h1" size="xl" mb="3">
            This page could not be shown
          </Heading>
          <Text color="fg.muted" mb="5">
            Something went wrong while loading it. Reloading usually helps.
          </Text>
          <Button colorPalette="teal" onClick={() => location.reload()}>
            Reload the page
          </Button>
        </Box>
      </Container>
    );
  }
}
