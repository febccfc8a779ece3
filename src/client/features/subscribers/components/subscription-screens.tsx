import { Heading, Link, Stack, Text } from "@chakra-ui/react";
import { subscriptionLinkSchema } from "#shared/schemas/subscriptions.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { Panel } from "../../../components/layout/panel.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { UnsubscribePanel } from "../../../components/unsubscribe-panel.tsx";
import { useOnOpen } from "../../../lib/use-on-open.ts";
import { useConfirmSubscription, useSubscriptionLink } from "../api/subscriptions.ts";

/** `/subscriptions/confirm/:token`, the link of the confirmation mail. */
export function ConfirmSubscriptionScreen({ token }: { token: string }) {
  const confirm = useConfirmSubscription();
  useOnOpen(() => confirm.mutate(token));
  return (
    <Panel>
      <Stack gap="4">
        <Heading as="h1" size="xl">
          {confirm.data ? "Subscription confirmed" : "Confirm your subscription"}
        </Heading>
        {confirm.isPending && <Text role="status">Confirming…</Text>}
        <ErrorLines error={confirm.error} />
        {confirm.data && (
          <Text role="status">
            Subscribed: {confirm.data.email} will get {confirm.data.authorName}'s new posts by e-mail. Every mail has a
            link to stop them.
          </Text>
        )}
        {confirm.data && (
          <Link asChild alignSelf="flex-start" colorPalette="teal">
            <RouterLink to={`/search?author=${confirm.data.authorId}`}>
              Read {confirm.data.authorName}'s posts
            </RouterLink>
          </Link>
        )}
      </Stack>
    </Panel>
  );
}

/** `/subscriptions/unsubscribe/:id/:token`, the footer link of every mail a subscriber gets, with a way back. */
export function SubscriberUnsubscribeScreen({ params }: { params: Record<string, string | undefined> }) {
  const link = subscriptionLinkSchema.safeParse(params);
  const unsubscribe = useSubscriptionLink("unsubscribe");
  const resubscribe = useSubscriptionLink("resubscribe");
  useOnOpen(() => {
    if (link.success) unsubscribe.mutate(link.data);
  });
  const left = unsubscribe.data;
  const back = resubscribe.data;
  return (
    <UnsubscribePanel
      valid={link.success}
      pending={unsubscribe.isPending}
      error={unsubscribe.error ?? resubscribe.error}
      done={left && `Done: ${left.email} will no longer get ${left.authorName}'s new posts by e-mail.`}
      undo={
        link.success && left
          ? { label: "Subscribe again", pending: resubscribe.isPending, onClick: () => resubscribe.mutate(link.data) }
          : undefined
      }
      undone={back && `Subscribed again: ${back.email} gets ${back.authorName}'s new posts by e-mail.`}
    />
  );
}
