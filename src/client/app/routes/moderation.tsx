import { ModerationLog } from "../../features/moderation/components/moderation-log.tsx";
import { ModerationQueue } from "../../features/moderation/components/moderation-queue.tsx";
import { RulesPage } from "../../features/moderation/components/rules-page.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";

export function RulesRoute() {
  usePageTitle("Rules");
  return <RulesPage />;
}

export function ModerationRoute() {
  usePageTitle("Moderation");
  return <ModerationQueue />;
}

export function ModerationLogRoute() {
  usePageTitle("Moderation log");
  return <ModerationLog />;
}
