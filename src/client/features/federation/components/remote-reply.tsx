import { Avatar, Box, HStack, Link, Stack, Text } from "@chakra-ui/react";
import type { RemoteReply } from "#shared/schemas/federation.ts";
import { RichText } from "../../../components/rich-text.tsx";
import { TimeAgo } from "../../../components/time-ago.tsx";

/** A reply from the fediverse: its author as their server shows them, a link to the original, and its text. */
export function RemoteReplyCard({ reply, actions }: { reply: RemoteReply; actions?: React.ReactNode }) {
  return (
    <Box borderWidth="1px" borderRadius="md" p="3">
      <HStack gap="2" mb="1" wrap="wrap">
        <Avatar.Root size="xs">
          <Avatar.Fallback name={reply.authorName} />
          {reply.authorAvatar && (
            <Avatar.Image src={reply.authorAvatar} alt="" referrerPolicy="no-referrer" loading="lazy" />
          )}
        </Avatar.Root>
        <Stack gap="0">
          <Text fontSize="sm" fontWeight="medium">
            {reply.authorName}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {reply.authorHandle}
          </Text>
        </Stack>
        <Text fontSize="xs" color="fg.muted">
          {reply.url ? (
            <Link href={reply.url} target="_blank" rel="nofollow ugc noopener noreferrer">
              <TimeAgo iso={reply.publishedAt} />
            </Link>
          ) : (
            <TimeAgo iso={reply.publishedAt} />
          )}
        </Text>
        {actions && (
          <HStack ms="auto" gap="1">
            {actions}
          </HStack>
        )}
      </HStack>
      <Box fontSize="md" css={{ "& .rich-text": { fontSize: "md", lineHeight: "1.6" }, "& p:last-child": { mb: 0 } }}>
        <RichText html={reply.content} />
      </Box>
    </Box>
  );
}
