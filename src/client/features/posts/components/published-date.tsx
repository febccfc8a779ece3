import type { Post } from "#shared/schemas/posts.ts";
import { formatDate } from "../../../lib/format.ts";

/** A post's date as readers know it: when it was published (a draft, which only its author sees: when written). */
export function PublishedDate({ post }: { post: Pick<Post, "publishedAt" | "createdAt"> }) {
  const at = post.publishedAt ?? post.createdAt;
  return <time dateTime={at}>{formatDate(at)}</time>;
}
