import { Box, Button } from "@chakra-ui/react";
import { UNREAD_COUNT_LIMIT } from "#shared/schemas/live.ts";
import { BellIcon } from "../../../components/icons.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { useUnreadCount } from "../api/unread-count.ts";

/** The bar's bell: the unread count, live while the page is open, and the way to the notifications. */
export function NotificationBell({ userId }: { userId: string }) {
  const count = useUnreadCount(userId);
  const shown = count >= UNREAD_COUNT_LIMIT ? `${UNREAD_COUNT_LIMIT - 1}+` : String(count);
  return (
    <Button asChild variant="ghost" size="sm" minW="8" px="2" position="relative">
      <RouterLink to="/notifications" aria-label={count > 0 ? `Notifications, ${shown} unread` : "Notifications"}>
        <BellIcon />
        {count > 0 && (
          <Box
            as="span"
            aria-hidden="true"
            position="absolute"
            top="0"
            insetEnd="0"
            minW="4"
            h="4"
            px="1"
            borderRadius="full"
            bg="red.solid"
            color="red.contrast"
            fontSize="2xs"
            fontWeight="bold"
            lineHeight="1"
            display="flex"
            alignItems="center"
            justifyContent="center"
          >
            {shown}
          </Box>
        )}
      </RouterLink>
    </Button>
  );
}
