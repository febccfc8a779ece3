import { Alert, Badge, Box, Button, Container, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { useNavigate } from "react-router-dom";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { EditIcon, EyeIcon, StarIcon, TrashIcon } from "../../../components/icons.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { RichText } from "../../../components/rich-text.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { useSession } from "../../../lib/session.ts";
import { usePageTitle } from "../../../lib/site-settings.ts";
import { ProvenanceBadge, SignThisRevision } from "../../provenance/public.tsx";
import { useDeletePost } from "../api/delete-post.ts";
import { usePost } from "../api/get-post.ts";
import { CoverImage } from "./cover-image.tsx";
import { PostTips } from "./post-tips.tsx";
import { PublishedDate } from "./published-date.tsx";
import { UnpublishedNotice } from "./unpublished-notice.tsx";

/** The post itself; the route page adds the comments below it. */
type Shown = NonNullable<ReturnType<typeof usePost>["data"]>;

const MODERATED = {
  held: "Waiting for review: a moderator will look at it before anyone else sees it.",
  hidden: "A moderator hid this post: only you see it.",
  removed: "A moderator removed this post: only you see it.",
  limited: "A moderator limited your account: this post is read at its address only, and listed nowhere.",
} as const;

const MISSING = {
  heading: "Post not found",
  why: "It may have been deleted or unpublished, or the address may be mistyped.",
  back: { to: "/posts", label: "Back to all posts" },
};

export function PostDetail({
  id,
  children,
  actions,
}: {
  id: string;
  children?: (post: Shown) => React.ReactNode;
  /** What a reader (not its author) can do about the post, beside its date: report it. */
  actions?: (post: Shown) => React.ReactNode;
}) {
  const session = useSession();
  const navigate = useNavigate();
  const post = usePost(id);
  const remove = useDeletePost();
  usePageTitle(post.data?.title);

  return (
    <QueryState query={post} label="Loading post" page missing={MISSING}>
      {(data) => {
        const isAuthor = session?.id === data.user.id;
        const provenance = data.status === "published" ? data.provenance : null;
        return (
          <Container as="article" maxW="3xl" py="8">
            <Stack gap="5">
              {data.image && (
                <CoverImage url={data.image} sizes="(min-width: 48rem) 48rem, 100vw" priority borderRadius="xl" />
              )}
              <HStack gap="2">
                <Badge colorPalette="teal">{data.category}</Badge>
                {data.isFeatured && (
                  <Badge colorPalette="yellow">
                    <StarIcon /> Featured
                  </Badge>
                )}
              </HStack>
              <Heading as="h1" size="3xl">
                {data.title}
              </Heading>
              {data.status !== "published" && <UnpublishedNotice post={data} />}
              {/* A limited author's post is read by others too: what moderation did is said to its author alone. */}
              {data.moderation && isAuthor && (
                <Alert.Root status={data.moderation.state === "held" ? "warning" : "error"}>
                  <Alert.Indicator />
                  <Alert.Content>
                    <Alert.Title>{MODERATED[data.moderation.state]}</Alert.Title>
                    {data.moderation.state !== "held" && (
                      <Alert.Description>Why: {data.moderation.reason}</Alert.Description>
                    )}
                  </Alert.Content>
                </Alert.Root>
              )}
              <UserChip user={data.user} size="sm">
                <Text color="fg.muted">
                  <PublishedDate post={data} /> · <EyeIcon /> {data.numViews}
                  <Box as="span" srOnly>
                    views
                  </Box>
                </Text>
                {!isAuthor && actions && <HStack ms="auto">{actions(data)}</HStack>}
                {isAuthor && (
                  <HStack ms="auto" wrap="wrap">
                    {data.status === "published" && (
                      <Button asChild size="sm" variant="outline" aria-label="Stats of this post">
                        <RouterLink to={`/stats/posts/${data.id}`}>Stats</RouterLink>
                      </Button>
                    )}
                    <Button asChild size="sm" variant="outline" aria-label="Edit post">
                      <RouterLink to={`/update-post/${data.id}`}>
                        <EditIcon /> Edit
                      </RouterLink>
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      colorPalette="red"
                      aria-label="Delete post"
                      disabled={remove.isPending}
                      onClick={() => {
                        if (window.confirm(`Delete "${data.title}"?`))
                          remove.mutate(data.id, { onSuccess: () => navigate("/posts") });
                      }}
                    >
                      <TrashIcon /> Delete
                    </Button>
                  </HStack>
                )}
              </UserChip>
              <ErrorLines error={remove.error} />
              {provenance && <ProvenanceBadge postId={data.id} provenance={provenance} />}
              <Box borderTopWidth="1px" pt="5">
                <RichText html={data.description} />
              </Box>
              <PostTips post={data} />
              {/* Below the body: it appears once the page knows its reader is the author, and moves nothing read. */}
              {isAuthor && provenance && !provenance.signer && <SignThisRevision postId={data.id} />}
              {children?.(data)}
            </Stack>
          </Container>
        );
      }}
    </QueryState>
  );
}
