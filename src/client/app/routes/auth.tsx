import { Panel } from "../../components/layout/panel.tsx";
import { LoginForm } from "../../features/auth/components/login-form.tsx";
import { RegisterForm } from "../../features/auth/components/register-form.tsx";

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
