import { useParams } from "react-router-dom";
import {
  ConfirmSubscriptionScreen,
  SubscriberUnsubscribeScreen,
} from "../../features/subscribers/components/subscription-screens.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";

export function ConfirmSubscriptionRoute() {
  usePageTitle("Confirm your subscription");
  return <ConfirmSubscriptionScreen token={useParams().token ?? ""} />;
}

export function SubscriberUnsubscribeRoute() {
  usePageTitle("Unsubscribe");
  return <SubscriberUnsubscribeScreen params={useParams()} />;
}
