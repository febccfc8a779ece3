import { Container } from "@chakra-ui/react";
import { Navigate, useParams } from "react-router-dom";
import { Panel } from "../../components/layout/panel.tsx";
import { QueryState } from "../../components/query-state.tsx";
import { BlocksSettings } from "../../features/blocks/components/blocks-settings.tsx";
import { RelationButtons, useBlocking } from "../../features/blocks/public.tsx";
import { ImportScreen } from "../../features/importing/components/import-screen.tsx";
import { AccountSettings } from "../../features/leaving/components/account-settings.tsx";
import { ReportButton } from "../../features/moderation/public.tsx";
import { DraftList } from "../../features/posts/components/draft-list.tsx";
import { useReadBeacon } from "../../features/stats/public.ts";
import { SubscribeByEmail, SubscriberCount } from "../../features/subscribers/public.tsx";
import { useProfile } from "../../features/users/api/profile.ts";
import {
  ChangePasswordForm,
  UpdateProfileForm,
  UploadPhotoForm,
} from "../../features/users/components/account-forms.tsx";
import { ProfileView } from "../../features/users/components/profile-view.tsx";
import { WebhookSettings } from "../../features/webhooks/components/webhook-settings.tsx";
import { useSession } from "../../lib/session.ts";
import { usePageTitle } from "../../lib/site-settings.ts";

/** Member routes are guarded, so a session is always there. */
const useUserId = () => useSession()?.id ?? "";

export function ProfileRoute() {
  const { id = "" } = useParams();
  useReadBeacon("profile", id, id);
  const blocking = useBlocking(id);
  return (
    <ProfileView
      key={id}
      id={id}
      blocking={blocking}
      drafts={<DraftList />}
      actions={(name) => (
        <>
          <RelationButtons userId={id} name={name} />
          <ReportButton target={{ kind: "user", id, label: "this profile" }} authorId={id} />
        </>
      )}
      subscribers={(owner) =>
        owner.isOwn ? (
          <SubscriberCount authorId={owner.id} />
        ) : (
          <SubscribeByEmail authorId={owner.id} authorName={owner.name} />
        )
      }
    />
  );
}

export function AccountSettingsRoute() {
  usePageTitle("Your data and account");
  return <AccountSettings />;
}

export function ImportRoute() {
  usePageTitle("Import");
  return <ImportScreen />;
}

export function WebhooksRoute() {
  usePageTitle("Webhooks");
  return (
    <Container maxW="3xl" py="8">
      <WebhookSettings />
    </Container>
  );
}

export function BlocksRoute() {
  usePageTitle("Blocks, mutes and comments");
  return (
    <Container maxW="3xl" py="8">
      <BlocksSettings />
    </Container>
  );
}

export const UploadPhotoRoute = () => (
  <Panel width="lg">
    <UploadPhotoForm userId={useUserId()} />
  </Panel>
);

export const ChangePasswordRoute = () => (
  <Panel width="lg">
    <ChangePasswordForm userId={useUserId()} />
  </Panel>
);

/** Only one's own profile can be updated; another id goes back to one's own. */
export function UpdateProfileRoute() {
  const { id = "" } = useParams();
  const userId = useUserId();
  const profile = useProfile(userId);
  if (id !== userId) return <Navigate to={`/update-profile/${userId}`} replace />;
  return (
    <Panel width="lg">
      <QueryState query={profile} label="Loading profile">
        {(data) => <UpdateProfileForm profile={data} />}
      </QueryState>
    </Panel>
  );
}
