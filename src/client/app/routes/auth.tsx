import { Box, Container } from "@chakra-ui/react";
import { LoginForm } from "../../features/auth/components/login-form.tsx";
import { RegisterForm } from "../../features/auth/components/register-form.tsx";

const Panel = ({ children }: { children: React.ReactNode }) => (
  <Container maxW="md" py={{ base: "8", md: "14" }}>
    <Box borderWidth="1px" borderRadius="xl" p={{ base: "5", md: "8" }} bg="bg.panel" shadow="sm">
      {children}
    </Box>
  </Container>
);

export const LoginRoute = () => (
  <Panel>
    <LoginForm />
  </Panel>
);

export const RegisterRoute = () => (
  <Panel>
    <RegisterForm />
  </Panel>
);
