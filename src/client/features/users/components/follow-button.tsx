import { Box } from "@chakra-ui/react";
import { useLocation, useNavigate } from "react-router-dom";
import { ActionButton } from "../../../components/action-button.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { loginThenBack } from "../../../lib/login-return.ts";
import { useSession } from "../../../lib/session.ts";
import { useFollowState } from "../api/follow-state.ts";
import { useFollow } from "../api/profile.ts";

/**
 * Follow or Unfollow `user` from elsewhere than their profile (a post's page). A visitor's press (the server's page
 * is a visitor's) goes to log in, and back here after.
 */
export function FollowButton({ user }: { user: { id: string; name: string } }) {
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const state = useFollowState(user.id, Boolean(session));
  const follow = useFollow(user.id);
  if (!session) {
    return (
      <ActionButton
        size="sm"
        colorPalette="teal"
        busy={false}
        onClick={() => navigate(...loginThenBack(pathname, `Log in to follow ${user.name}.`))}
      >
        Follow
        <Box as="span" srOnly>
          {` ${user.name}`}
        </Box>
      </ActionButton>
    );
  }
  const following = state.data?.isFollowing ?? false;
  return (
    <>
      <ActionButton
        size="sm"
        colorPalette="teal"
        variant={following ? "outline" : "solid"}
        busy={!state.data || follow.isPending}
        onClick={() => follow.mutate(!following)}
      >
        {following ? "Unfollow" : "Follow"}
        <Box as="span" srOnly>
          {` ${user.name}`}
        </Box>
        {!following && state.data && ` (${state.data.followersCount})`}
      </ActionButton>
      <ErrorLines error={follow.error ?? state.error} />
    </>
  );
}
