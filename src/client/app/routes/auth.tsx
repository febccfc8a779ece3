import { Alert } from "@chakra-ui/react";
import { useAtom } from "jotai";
import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { Panel } from "../../components/layout/panel.tsx";
import { LoginForm } from "../../features/auth/components/login-form.tsx";
import { RegisterForm } from "../../features/auth/components/register-form.tsx";
import { loginReturnOf } from "../../lib/login-return.ts";
import { signedOutNoticeAtom } from "../../lib/session.ts";
import { usePageTitle } from "../../lib/site-settings.ts";
import { useHydrated } from "../../lib/use-hydrated.tsx";
import { pageTitles } from "../page-heads.ts";

export function LoginRoute() {
  usePageTitle(pageTitles.login);
  const [signedOut, setNotice] = useAtom(signedOutNoticeAtom);
  // Said once: leaving the page forgets it.
  useEffect(() => () => setNotice(null), [setNotice]);
  // Why the visitor was sent here is the browser's history, which the server's page cannot know.
  const { note } = loginReturnOf(useLocation().state);
  const hydrated = useHydrated();
  const notice = signedOut ?? (hydrated ? note : null);
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
