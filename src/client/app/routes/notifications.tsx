import { useParams } from "react-router-dom";
import { PendingReplies } from "../../features/federation/components/pending-replies.tsx";
import { NotificationSettingsScreen } from "../../features/notifications/components/notification-settings.tsx";
import { NotificationsScreen } from "../../features/notifications/components/notifications-screen.tsx";
import { UnsubscribeScreen } from "../../features/notifications/components/unsubscribe-screen.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";

export function NotificationsRoute() {
  usePageTitle("Notifications");
  return <NotificationsScreen before={<PendingReplies />} />;
}

export function NotificationSettingsRoute() {
  usePageTitle("Notification settings");
  return <NotificationSettingsScreen />;
}

export function UnsubscribeRoute() {
  usePageTitle("Unsubscribe");
  return <UnsubscribeScreen params={useParams()} />;
}
