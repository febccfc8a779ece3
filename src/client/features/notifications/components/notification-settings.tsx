import { Container, Heading, RadioGroup, Stack, Text } from "@chakra-ui/react";
import {
  DELIVERIES,
  DELIVERY_LABELS,
  type Delivery,
  type NotificationTopic,
  TOPICS,
} from "#shared/schemas/notifications.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { useNotificationSettings, useUpdateNotificationSettings } from "../api/settings.ts";

/**
 * `/notifications/settings` (from the avatar menu): per kind, in the app only, e-mail at once, or a daily digest.
 * Each choice is saved as it is made.
 */
export function NotificationSettingsScreen() {
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const choose = (topic: NotificationTopic, delivery: Delivery) => update.mutate([{ topic, delivery }]);
  return (
    <Container maxW="2xl" py="8">
      <Stack gap="6">
        <Heading as="h1" size="2xl">
          Notification settings
        </Heading>
        <QueryState query={settings} label="Loading settings">
          {(data) => (
            <Stack gap="5">
              {!data.emailVerified && (
                <Text color="fg.warning">
                  Mail goes to verified addresses only: verify your account to receive any.
                </Text>
              )}
              {data.settings.map(({ topic, delivery }) => (
                <Stack key={topic} gap="2" borderBottomWidth="1px" pb="4">
                  <Text id={`topic-${topic}`} fontWeight="medium">
                    {TOPICS[topic].label}
                  </Text>
                  <RadioGroup.Root
                    value={delivery}
                    onValueChange={(details) => details.value && choose(topic, details.value as Delivery)}
                    aria-labelledby={`topic-${topic}`}
                    disabled={update.isPending}
                  >
                    <Stack direction={{ base: "column", sm: "row" }} gap={{ base: "2", sm: "5" }}>
                      {DELIVERIES.map((option) => (
                        <RadioGroup.Item key={option} value={option}>
                          <RadioGroup.ItemHiddenInput />
                          <RadioGroup.ItemIndicator />
                          <RadioGroup.ItemText>{DELIVERY_LABELS[option]}</RadioGroup.ItemText>
                        </RadioGroup.Item>
                      ))}
                    </Stack>
                  </RadioGroup.Root>
                </Stack>
              ))}
              {update.isSuccess && (
                <Text role="status" color="green.fg">
                  Saved.
                </Text>
              )}
              <ErrorLines error={update.error} />
            </Stack>
          )}
        </QueryState>
      </Stack>
    </Container>
  );
}
