import { Container } from "@chakra-ui/react";
import { useParams } from "react-router-dom";
import { AppealByLink, MyDecisions } from "../../features/moderation/components/decisions.tsx";
import { ModerationLog } from "../../features/moderation/components/moderation-log.tsx";
import { ModerationQueue } from "../../features/moderation/components/moderation-queue.tsx";
import { RulesPage } from "../../features/moderation/components/rules-page.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";

export function RulesRoute() {
  usePageTitle("Rules");
  return (
    <Container maxW="3xl" py="8">
      <RulesPage />
    </Container>
  );
}

export function ModerationRoute() {
  usePageTitle("Moderation");
  return (
    <Container maxW="4xl" py="8">
      <ModerationQueue />
    </Container>
  );
}

export function DecisionsRoute() {
  usePageTitle("Decisions about you");
  return (
    <Container maxW="3xl" py="8">
      <MyDecisions />
    </Container>
  );
}

export function ModerationLogRoute() {
  usePageTitle("Moderation log");
  return (
    <Container maxW="5xl" py="8">
      <ModerationLog />
    </Container>
  );
}

export function AppealByLinkRoute() {
  const { actionId = "", token = "" } = useParams();
  usePageTitle("Appeal a decision");
  return (
    <Container maxW="3xl" py="8">
      <AppealByLink actionId={actionId} token={token} />
    </Container>
  );
}
