import { Container, Heading, Stack } from "@chakra-ui/react";
import { CloseAccountForm } from "./close-account-form.tsx";

/** `/settings/account`: what a user can do with their account as a whole. */
export function AccountSettings() {
  return (
    <Container maxW="3xl" py="8">
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          Your data and account
        </Heading>
        <CloseAccountForm />
      </Stack>
    </Container>
  );
}
