import { Panel } from "../../components/layout/panel.tsx";
import { LoginForm } from "../../features/auth/components/login-form.tsx";
import { RegisterForm } from "../../features/auth/components/register-form.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";

export function LoginRoute() {
  usePageTitle(pageTitles.login);
  return (
    <Panel>
      <LoginForm />
    </Panel>
  );
}

export function RegisterRoute() {
  usePageTitle(pageTitles.register);
  return (
    <Panel>
      <RegisterForm />
    </Panel>
  );
}
