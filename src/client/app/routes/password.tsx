import { Box, Container } from "@chakra-ui/react";
import { useParams } from "react-router-dom";
import { PasswordResetRequestForm, ResetPasswordForm } from "../../features/auth/components/password-reset-forms.tsx";
import { VerifyAccount } from "../../features/auth/components/verify-account.tsx";

const Panel = ({ children }: { children: React.ReactNode }) => (
  <Container maxW="md" py={{ base: "8", md: "14" }}>
    <Box borderWidth="1px" borderRadius="xl" p={{ base: "5", md: "8" }} bg="bg.panel">
      {children}
    </Box>
  </Container>
);

export const PasswordResetRequestRoute = () => (
  <Panel>
    <PasswordResetRequestForm />
  </Panel>
);

export function ResetPasswordRoute() {
  const { token = "" } = useParams();
  return (
    <Panel>
      <ResetPasswordForm token={token} />
    </Panel>
  );
}

export function VerifyAccountRoute() {
  const { token = "" } = useParams();
  return (
    <Panel>
      <VerifyAccount token={token} />
    </Panel>
  );
}
