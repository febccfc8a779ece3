import { useParams } from "react-router-dom";
import { Panel } from "../../components/layout/panel.tsx";
import { PasswordResetRequestForm, ResetPasswordForm } from "../../features/auth/components/password-reset-forms.tsx";
import { VerifyAccount } from "../../features/auth/components/verify-account.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";
import { pageTitles } from "../page-heads.ts";

export function PasswordResetRequestRoute() {
  usePageTitle(pageTitles.passwordReset);
  return (
    <Panel>
      <PasswordResetRequestForm />
    </Panel>
  );
}

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
