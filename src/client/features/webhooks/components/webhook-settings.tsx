import { Badge, Box, Button, Code, Heading, HStack, Stack, Table, Text } from "@chakra-ui/react";
import { tableSlotRecipe } from "@chakra-ui/react/theme";
import { useState } from "react";
import {
  ADMIN_EVENTS,
  AUTHOR_EVENTS,
  type Webhook,
  type WebhookCreate,
  webhookCreateSchema,
} from "#shared/schemas/webhooks.ts";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { QueryState } from "../../../components/query-state.tsx";
import { formatDate } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useSendAgain,
  useUpdateWebhook,
  useWebhooks,
} from "../api/webhooks.ts";

/** A new endpoint: its address, what it hears of, and (once) its secret. */
function CreateWebhookForm() {
  const session = useSession();
  const create = useCreateWebhook();
  const form = useZodForm(webhookCreateSchema, {
    serverError: create.error,
    defaultValues: { url: "", description: "", events: ["post.published"] },
  });
  const events = session?.isAdmin ? [...AUTHOR_EVENTS, ...ADMIN_EVENTS] : AUTHOR_EVENTS;
  const secret = create.data?.secret;
  return (
    <Box as="section" aria-labelledby="new-webhook" borderWidth="1px" borderRadius="lg" p="5">
      <form noValidate onSubmit={form.handleSubmit((input: WebhookCreate) => create.mutate(input))}>
        <Stack gap="4">
          <Heading as="h2" id="new-webhook" size="lg">
            Add a webhook
          </Heading>
          <TextField
            label="Address (https)"
            type="url"
            placeholder="https://example.com/penchain"
            registration={form.register("url")}
            error={form.formState.errors.url}
          />
          <TextField
            label="Description"
            registration={form.register("description")}
            error={form.formState.errors.description}
          />
          <Box as="fieldset">
            <Text as="legend" fontWeight="medium" mb="2">
              Events
            </Text>
            <Stack gap="1">
              {events.map((event) => (
                <CheckboxField key={event} label={event} value={event} registration={form.register("events")} />
              ))}
            </Stack>
            <Text color="fg.error" fontSize="sm">
              {form.formState.errors.events?.message}
            </Text>
          </Box>
          <ErrorLines error={create.error} />
          <SubmitButton alignSelf="flex-start" pending={create.isPending}>
            Add webhook
          </SubmitButton>
          {secret && (
            <Box role="status" borderWidth="1px" borderRadius="md" p="3" bg="bg.muted">
              <Text fontWeight="medium">Its signing secret, shown this once: copy it now.</Text>
              <Code wordBreak="break-all">{secret}</Code>
            </Box>
          )}
        </Stack>
      </form>
    </Box>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  useSlotRecipes({ table: tableSlotRecipe });
  const deliveries = useDeliveries(webhook.id);
  const again = useSendAgain(webhook.id);
  return (
    <QueryState query={deliveries} label="Loading deliveries">
      {({ items }) =>
        items.length === 0 ? (
          <Text color="fg.muted">No deliveries yet.</Text>
        ) : (
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Event</Table.ColumnHeader>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>Attempts</Table.ColumnHeader>
                <Table.ColumnHeader>Answer</Table.ColumnHeader>
                <Table.ColumnHeader>Time</Table.ColumnHeader>
                <Table.ColumnHeader>When</Table.ColumnHeader>
                <Table.ColumnHeader />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {items.map((delivery) => (
                <Table.Row key={delivery.id}>
                  <Table.Cell>{delivery.event}</Table.Cell>
                  <Table.Cell>{delivery.status}</Table.Cell>
                  <Table.Cell>{delivery.attempts}</Table.Cell>
                  <Table.Cell title={delivery.error ?? undefined}>
                    {delivery.answerCode ?? delivery.error ?? "—"}
                  </Table.Cell>
                  <Table.Cell>{delivery.durationMs === null ? "—" : `${delivery.durationMs} ms`}</Table.Cell>
                  <Table.Cell>{formatDate(delivery.createdAt)}</Table.Cell>
                  <Table.Cell>
                    <Button size="xs" variant="outline" onClick={() => again.mutate(delivery.id)}>
                      Redeliver
                    </Button>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )
      }
    </QueryState>
  );
}

function WebhookItem({ webhook }: { webhook: Webhook }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateWebhook(webhook.id);
  const remove = useDeleteWebhook(webhook.id);
  const test = useSendAgain(webhook.id);
  return (
    <Box as="li" listStyleType="none" borderWidth="1px" borderRadius="lg" p="4">
      <Stack gap="2">
        <HStack justify="space-between" wrap="wrap">
          <Text fontWeight="medium" wordBreak="break-all">
            {webhook.url}
          </Text>
          {webhook.disabledAt ? (
            <Badge colorPalette="red">Disabled</Badge>
          ) : webhook.paused ? (
            <Badge>Paused</Badge>
          ) : (
            <Badge colorPalette="teal">Active</Badge>
          )}
        </HStack>
        {webhook.description && <Text>{webhook.description}</Text>}
        {webhook.disabledReason && <Text color="fg.error">Disabled: {webhook.disabledReason}.</Text>}
        <Text fontSize="sm" color="fg.muted">
          {webhook.events.join(", ")}
        </Text>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" variant="outline" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? "Hide deliveries" : "Deliveries"}
          </Button>
          <Button size="sm" variant="outline" onClick={() => test.mutate(null)} loading={test.isPending}>
            Send a test
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => update.mutate({ paused: !(webhook.paused || webhook.disabledAt) })}
            loading={update.isPending}
          >
            {webhook.paused || webhook.disabledAt ? "Resume" : "Pause"}
          </Button>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            onClick={() => window.confirm(`Delete the webhook to ${webhook.url}?`) && remove.mutate()}
            loading={remove.isPending}
          >
            Delete
          </Button>
        </HStack>
        <ErrorLines error={update.error ?? remove.error ?? test.error} />
        {open && <Deliveries webhook={webhook} />}
      </Stack>
    </Box>
  );
}

/** `/settings/webhooks`: the user's endpoints, a new one, and each one's deliveries (docs/webhooks.md). */
export function WebhookSettings() {
  const webhooks = useWebhooks();
  return (
    <Stack gap="6">
      <Heading as="h1" size="2xl">
        Webhooks
      </Heading>
      <Text>
        Penchain tells these addresses, signed, when something happens to your posts, comments, followers, subscribers
        and payments. How to check a signature is in the developers' guide.
      </Text>
      <CreateWebhookForm />
      <QueryState query={webhooks} label="Loading webhooks">
        {({ items }) =>
          items.length === 0 ? (
            <Text color="fg.muted">No webhooks yet.</Text>
          ) : (
            <Stack as="ul" gap="3" aria-label="Your webhooks">
              {items.map((webhook) => (
                <WebhookItem key={webhook.id} webhook={webhook} />
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}
