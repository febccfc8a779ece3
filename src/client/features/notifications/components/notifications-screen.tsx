import { Avatar, Box, Button, Container, Flex, Heading, HStack, Link, Stack, Text } from "@chakra-ui/react";
import { imageAt } from "#shared/images.ts";
import { describeNotification } from "#shared/notification-text.ts";
import type { Notification } from "#shared/schemas/notifications.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { PagedList } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { TimeAgo } from "../../../components/time-ago.tsx";
import { fullName } from "../../../lib/format.ts";
import { useMarkRead, useNotifications } from "../api/notifications.ts";

/** Where a notification takes its reader: the post it is about, else the person, else nowhere new. */
function linkOf(item: Notification) {
  // A moderator's decision opens the list of decisions, where it can be appealed.
  if (item.kind === "moderation") return "/decisions";
  if (item.post) return `/posts/${item.post.id}`;
  if (item.kind === "follow" && item.actor) return `/profile/${item.actor.id}`;
  return null;
}

function Entry({ item, onOpen }: { item: Notification; onOpen: () => void }) {
  const text = describeNotification({
    kind: item.kind,
    actor: item.actor ? fullName(item.actor) : null,
    others: Math.max(0, item.actorsCount - 1),
    postTitle: item.post?.title ?? null,
    amountWei: item.amountWei,
  });
  const link = linkOf(item);
  return (
    <HStack
      as="li"
      gap="3"
      align="flex-start"
      p="3"
      borderRadius="md"
      bg={item.read ? undefined : "teal.subtle"}
      borderWidth="1px"
      borderColor={item.read ? "border" : "teal.muted"}
    >
      {item.actor ? (
        <Avatar.Root size="sm">
          <Avatar.Fallback name={fullName(item.actor)} />
          {item.actor.profilePhoto && <Avatar.Image src={imageAt(item.actor.profilePhoto, "photo", 128)} alt="" />}
        </Avatar.Root>
      ) : (
        <Box w="8" h="8" borderRadius="full" bg="bg.emphasized" aria-hidden="true" />
      )}
      <Stack gap="0" flex="1" minW="0">
        {link ? (
          <Link asChild fontWeight={item.read ? "normal" : "semibold"} onClick={onOpen}>
            <RouterLink to={link}>{text}</RouterLink>
          </Link>
        ) : (
          <Text fontWeight={item.read ? "normal" : "semibold"}>{text}</Text>
        )}
        <Text fontSize="sm" color="fg.muted">
          {!item.read && (
            <Text as="span" srOnly>
              Unread.{" "}
            </Text>
          )}
          <TimeAgo iso={item.updatedAt} />
        </Text>
      </Stack>
    </HStack>
  );
}

/** `/notifications`: newest first, unread ones marked, each linking to what it is about. */
/** `before`: what the page shows above the list (the replies waiting for the author's approval). */
export function NotificationsScreen({ before }: { before?: React.ReactNode }) {
  const notifications = useNotifications();
  const markRead = useMarkRead();
  const items = notifications.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Container maxW="2xl" py="8">
      <Stack gap="5">
        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          <Heading as="h1" size="2xl">
            Notifications
          </Heading>
          <HStack gap="2">
            <Button asChild size="sm" variant="ghost">
              <RouterLink to="/notifications/settings">Settings</RouterLink>
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => markRead.mutate(undefined)}
              loading={markRead.isPending}
              disabled={!items.some((item) => !item.read)}
            >
              Mark all as read
            </Button>
          </HStack>
        </Flex>
        {before}
        <ErrorLines error={markRead.error} />
        <PagedList pages={notifications} label="Loading notifications" empty="No notifications yet">
          {(list) => (
            <Stack as="ul" listStyleType="none" gap="2" aria-label="Notifications">
              {list.map((item) => (
                <Entry key={item.id} item={item} onOpen={() => !item.read && markRead.mutate([item.id])} />
              ))}
            </Stack>
          )}
        </PagedList>
      </Stack>
    </Container>
  );
}
