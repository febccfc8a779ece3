import {
  Avatar,
  Badge,
  Box,
  Button,
  Container,
  Flex,
  Heading,
  HStack,
  Link,
  SimpleGrid,
  Stack,
  Stat,
  Tabs,
  Text,
} from "@chakra-ui/react";
import { statSlotRecipe, tabsSlotRecipe } from "@chakra-ui/react/theme";
import { useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { TIP_CHOICES_ETH } from "#shared/schemas/payments.ts";
import { formatEth } from "#shared/text.ts";
import { ActionButton } from "../../../components/action-button.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { formatDate, fullName } from "../../../lib/format.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { useSession } from "../../../lib/session.ts";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { authorTip, TipAuthorButton } from "../../wallet/public.tsx";
import { useFollow, useProfile } from "../api/profile.ts";
import { OwnWallet } from "./own-wallet.tsx";

/** `drafts`: the owner's drafts tab, composed by the page (drafts belong to posts). */
export function ProfileView({
  id,
  drafts,
  actions,
  blocking,
  subscribers,
}: {
  id: string;
  drafts: ReactNode;
  /** Subscribing by e-mail (someone else's profile) or one's own subscribers, given the profile's owner. */
  subscribers?: (owner: { id: string; name: string; isOwn: boolean }) => ReactNode;
  /** What a visitor can do about someone else's profile: report it. */
  /** What another reader may do about this profile, given its owner's name. */
  actions?: (name: string) => ReactNode;
  /** Whether the reader blocks this person: they are offered Unblock (among `actions`), not Follow. */
  blocking?: boolean | undefined;
}) {
  useSlotRecipes({ stat: statSlotRecipe, tabs: tabsSlotRecipe });
  const session = useSession();
  const profile = useProfile(id);
  const follow = useFollow(id);
  const queryClient = useQueryClient();
  return (
    <QueryState query={profile} label="Loading profile" page>
      {(user) => {
        const isOwn = session?.id === user.id;
        const counts: [string, number][] = [
          ["Posts", user.postCount],
          ["Followers", user.followersCount],
          ["Following", user.followingCount],
          ["Viewers", user.viewersCount],
        ];
        const reloadProfile = () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.profile(user.id) });

        const publishedPosts =
          user.posts.length === 0 ? (
            <Text color="fg.muted">No Post Found</Text>
          ) : (
            <Stack as="ul" listStyleType="none" gap="3">
              {user.posts.map((post) => (
                <HStack as="li" key={post.id} justify="space-between" gap="3" borderBottomWidth="1px" pb="2">
                  <Link asChild fontWeight="medium">
                    <RouterLink to={`/posts/${post.id}`}>{post.title}</RouterLink>
                  </Link>
                  <Text fontSize="sm" color="fg.muted" flexShrink={0}>
                    {post.category} · {formatDate(post.publishedAt)}
                  </Text>
                </HStack>
              ))}
            </Stack>
          );

        return (
          <Container maxW="5xl" py="8">
            <Box
              h={{ base: "24", md: "36" }}
              borderRadius="xl"
              bgGradient="to-r"
              gradientFrom="teal.500"
              gradientTo="blue.600"
            />
            <Flex
              direction={{ base: "column", md: "row" }}
              gap="5"
              mt="-12"
              px={{ base: "2", md: "6" }}
              align={{ base: "flex-start", md: "flex-end" }}
            >
              <Avatar.Root size="2xl" borderWidth="4px" borderColor="bg" boxSize="28">
                <Avatar.Fallback name={fullName(user)} />
                {user.profilePhoto && <Avatar.Image src={user.profilePhoto} alt={`${fullName(user)}'s photo`} />}
              </Avatar.Root>
              <Stack gap="1" flex="1" pt={{ md: "14" }}>
                <Heading as="h1" size="2xl">
                  {fullName(user)}
                </Heading>
                {/* Not in the spec (docs/product.md, "The fediverse"): how the fediverse finds this author. */}
                <Text color="fg.muted" fontSize="sm" aria-label="Fediverse handle">
                  @{user.handle}@{location.host}
                </Text>
                <HStack gap="2" wrap="wrap">
                  <Badge colorPalette={user.accountType === "Pro Account" ? "purple" : "gray"}>
                    {user.accountType}
                  </Badge>
                  <Badge colorPalette={user.isAccountVerified ? "green" : "orange"}>
                    {user.isAccountVerified ? "Account Verified" : "Unverified Account"}
                  </Badge>
                  {user.rewardsCount > 0 && <Badge colorPalette="yellow">Rewarded {user.rewardsCount}×</Badge>}
                  {user.tipsReceived.count > 0 && (
                    <Badge colorPalette="yellow">
                      Tipped {user.tipsReceived.count}× · {formatEth(user.tipsReceived.totalWei)}
                    </Badge>
                  )}
                </HStack>
                <Text color="fg.muted" fontSize="sm">
                  Date Joined: {formatDate(user.createdAt)}
                </Text>
              </Stack>
              <HStack gap="2" wrap="wrap">
                {isOwn ? (
                  <>
                    <Button asChild size="sm" variant="outline">
                      <RouterLink to="/upload-profile-photo">Upload Photo</RouterLink>
                    </Button>
                    <Button asChild size="sm" variant="outline">
                      <RouterLink to={`/update-profile/${user.id}`}>Update Profile</RouterLink>
                    </Button>
                  </>
                ) : blocking ? (
                  <Text fontSize="sm" color="fg.muted" alignSelf="center">
                    You blocked {fullName(user)}: unblock them to follow.
                  </Text>
                ) : (
                  <ActionButton
                    size="sm"
                    colorPalette="teal"
                    variant={user.isFollowing ? "outline" : "solid"}
                    busy={follow.isPending}
                    onClick={() => follow.mutate(!user.isFollowing)}
                  >
                    {user.isFollowing ? "Unfollow" : `Follow (${user.followersCount})`}
                  </ActionButton>
                )}
                <Button asChild size="sm" variant="outline">
                  <RouterLink to="/send-mail" state={{ email: user.email ?? "", id: user.id, name: fullName(user) }}>
                    Send Message
                  </RouterLink>
                </Button>
                {!isOwn && user.isWalletVerified && user.walletAddress && (
                  <TipAuthorButton
                    to={authorTip({ id: user.id, name: fullName(user), walletAddress: user.walletAddress }, "profile")}
                    choices={TIP_CHOICES_ETH}
                    onPaid={reloadProfile}
                  />
                )}
                {!isOwn && actions?.(fullName(user))}
              </HStack>
            </Flex>
            <ErrorLines error={follow.error} />
            {user.bio && (
              <Text mt="6" px={{ base: "2", md: "6" }}>
                {user.bio}
              </Text>
            )}
            {isOwn && <OwnWallet address={user.walletAddress} verified={user.isWalletVerified} />}
            <SimpleGrid columns={{ base: 2, md: 4 }} gap="4" mt="6">
              {counts.map(([label, value]) => (
                <Stat.Root key={label} borderWidth="1px" borderRadius="lg" p="4">
                  <Stat.Label>{label}</Stat.Label>
                  <Stat.ValueText>{value}</Stat.ValueText>
                  {label === "Followers" && user.fediverseFollowersCount > 0 && (
                    <Text fontSize="sm" color="fg.muted">
                      {user.fediverseFollowersCount} on the fediverse
                    </Text>
                  )}
                </Stat.Root>
              ))}
            </SimpleGrid>
            {subscribers && <Box mt="4">{subscribers({ id: user.id, name: fullName(user), isOwn })}</Box>}
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="6" mt="8">
              <Box as="section" aria-labelledby="viewers-heading" borderWidth="1px" borderRadius="lg" p="4">
                <Heading as="h2" id="viewers-heading" size="md" mb="3">
                  Who viewed the profile
                </Heading>
                {user.viewedBy.length === 0 ? (
                  <Text color="fg.muted">No Viewer</Text>
                ) : (
                  <Stack as="ul" listStyleType="none" gap="2">
                    {user.viewedBy.map((viewer) => (
                      <li key={viewer.id}>
                        <UserChip user={viewer} />
                      </li>
                    ))}
                  </Stack>
                )}
              </Box>
              <Box
                as="section"
                aria-labelledby="posts-heading"
                gridColumn={{ md: "span 2" }}
                borderWidth="1px"
                borderRadius="lg"
                p="4"
              >
                <Heading as="h2" id="posts-heading" size="md" mb="3">
                  Posts
                </Heading>
                {isOwn ? (
                  // Drafts and scheduled posts are the author's alone, so only their own profile has the tab.
                  <Tabs.Root defaultValue="posts" variant="line" lazyMount>
                    <Tabs.List mb="3">
                      <Tabs.Trigger value="posts">Published</Tabs.Trigger>
                      <Tabs.Trigger value="drafts">Drafts</Tabs.Trigger>
                    </Tabs.List>
                    <Tabs.Content value="posts">{publishedPosts}</Tabs.Content>
                    <Tabs.Content value="drafts">{drafts}</Tabs.Content>
                  </Tabs.Root>
                ) : (
                  publishedPosts
                )}
              </Box>
            </SimpleGrid>
          </Container>
        );
      }}
    </QueryState>
  );
}
