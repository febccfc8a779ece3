import { Container, Heading, Stack } from "@chakra-ui/react";
import { CloseAccountForm } from "./close-account-form.tsx";
import { DataExportSection } from "./data-export.tsx";

/** `/settings/account`: a user's data to take away, and closing the account. */
export function AccountSettings() {
  return (
    <Container maxW="3xl" py="8">
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          Your data and account
        </Heading>
        <DataExportSection />
        <CloseAccountForm />
      </Stack>
    </Container>
  );
}
