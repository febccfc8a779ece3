import { Button, HStack, Text } from "@chakra-ui/react";
import { useQueryClient } from "@tanstack/react-query";
import { TIP_CHOICES_ETH } from "#shared/schemas/payments.ts";
import type { PostDetail } from "#shared/schemas/posts.ts";
import { formatEth } from "#shared/text.ts";
import { RouterLink } from "../../../components/router-link.tsx";
import { fullName } from "../../../lib/format.ts";
import { queryKeys } from "../../../lib/query-keys.ts";
import { useSession } from "../../../lib/session.ts";
import { authorTip, TipAuthorButton } from "../../wallet/public.tsx";

/**
 * A post's tips (how many, and their total), and "Tip the author" for a signed-in reader when its author has a
 * verified wallet. No wallet code loads until the button is pressed.
 */
export function PostTips({ post }: { post: PostDetail }) {
  const session = useSession();
  const queryClient = useQueryClient();
  if (post.status !== "published") return null;
  const { count, totalWei } = post.tips;
  const tippable = post.authorWallet !== null && session?.id !== post.user.id;
  return (
    <HStack gap="3" wrap="wrap" borderTopWidth="1px" pt="4" aria-label="Tips">
      <Text color="fg.muted">
        {count > 0 ? `${count} tip${count === 1 ? "" : "s"} · ${formatEth(totalWei)}` : "No tips yet"}
      </Text>
      {tippable &&
        post.authorWallet &&
        (session ? (
          <TipAuthorButton
            to={authorTip(
              { id: post.user.id, name: fullName(post.user), walletAddress: post.authorWallet },
              { postId: post.id },
            )}
            choices={TIP_CHOICES_ETH}
            onPaid={() => void queryClient.invalidateQueries({ queryKey: queryKeys.posts.detail(post.id) })}
          />
        ) : (
          <Button asChild size="sm" variant="outline" colorPalette="yellow">
            <RouterLink to="/login">Log in to tip the author</RouterLink>
          </Button>
        ))}
    </HStack>
  );
}
