import { Alert } from "@chakra-ui/react";
import { useAtom } from "jotai";
import { useEffect } from "react";
import { Panel } from "../../components/layout/panel.tsx";
import { LoginForm } from "../../features/auth/components/login-form.tsx";
import { RegisterForm } from "../../features/auth/components/register-form.tsx";
import { signedOutNoticeAtom } from "../../lib/session.ts";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";

export function LoginRoute() {
  usePageTitle(pageTitles.login);
  const [notice, setNotice] = useAtom(signedOutNoticeAtom);
  // Said once: leaving the page forgets it.
  useEffect(() => () => setNotice(null), [setNotice]);
  return (
    <Panel>
      {notice && (
        <Alert.Root status="info" mb="5">
          <Alert.Indicator />
          <Alert.Description>{notice}</Alert.Description>
        </Alert.Root>
      )}
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
