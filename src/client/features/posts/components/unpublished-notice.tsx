import { Alert } from "@chakra-ui/react";
import type { Post } from "#shared/schemas/posts.ts";
import { formatLocalDateTime } from "../../../lib/format.ts";

/** What the author of a draft or scheduled post sees on it: no one else can. */
export function UnpublishedNotice({ post }: { post: Pick<Post, "status" | "publishedAt"> }) {
  const scheduled = post.status === "scheduled" && post.publishedAt;
  return (
    <Alert.Root status={scheduled ? "info" : "warning"}>
      <Alert.Indicator />
      <Alert.Title>
        {scheduled
          ? `Scheduled for ${formatLocalDateTime(post.publishedAt as string)}. Only you can see it until then.`
          : "Draft. Only you can see it until you publish it."}
      </Alert.Title>
    </Alert.Root>
  );
}
