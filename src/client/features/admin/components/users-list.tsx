import { Badge, Box, Button, HStack, Table } from "@chakra-ui/react";
import { tableSlotRecipe } from "@chakra-ui/react/theme";
import { ActionButton } from "../../../components/action-button.tsx";
import { PagedList } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { UserChip } from "../../../components/user-chip.tsx";
import { fullName } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { TipButton } from "../../wallet/public.tsx";
import { useAdminUserAction, useAdminUsers, useReloadAfterTip } from "../api/users.ts";

export function UsersList() {
  useSlotRecipes({ table: tableSlotRecipe });
  const session = useSession();
  const users = useAdminUsers();
  const action = useAdminUserAction();
  const reloadRewards = useReloadAfterTip();
  return (
    <PagedList pages={users} label="Loading users" empty="No User Found" error={users.error ?? action.error} gap="4">
      {(items) => (
        <Box overflowX="auto">
          <Table.Root size="sm" variant="outline">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>User</Table.ColumnHeader>
                <Table.ColumnHeader>Account</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Followers</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Posts</Table.ColumnHeader>
                <Table.ColumnHeader>Actions</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {items.map((user) => (
                <Table.Row key={user.id}>
                  <Table.Cell>
                    <UserChip user={user} size="sm" link={false} detail={user.email} />
                  </Table.Cell>
                  <Table.Cell>
                    <HStack gap="1" wrap="wrap">
                      <Badge>{user.accountType}</Badge>
                      {user.isAdmin && <Badge colorPalette="purple">Admin</Badge>}
                      {user.isBlocked && <Badge colorPalette="red">Blocked</Badge>}
                      {user.isModerator && <Badge colorPalette="blue">Moderator</Badge>}
                      {user.rewardsCount > 0 && (
                        <Badge colorPalette="yellow" asChild>
                          <RouterLink to={`/payments?user=${user.id}`}>Rewards {user.rewardsCount}</RouterLink>
                        </Badge>
                      )}
                    </HStack>
                  </Table.Cell>
                  <Table.Cell textAlign="end">{user.followersCount}</Table.Cell>
                  <Table.Cell textAlign="end">{user.postCount}</Table.Cell>
                  <Table.Cell>
                    <HStack gap="1" wrap="wrap">
                      <Button asChild size="xs" variant="outline">
                        <RouterLink to={`/profile/${user.id}`}>Profile</RouterLink>
                      </Button>
                      {/* An admin cannot block or reward themself; the server refuses it too. */}
                      {user.id !== session?.id && (
                        <ActionButton
                          size="xs"
                          colorPalette={user.isBlocked ? "green" : "red"}
                          variant="outline"
                          busy={action.isPending}
                          onClick={() =>
                            action.mutate({ id: user.id, action: user.isBlocked ? "unblock-user" : "block-user" })
                          }
                        >
                          {user.isBlocked ? "Unblock" : "Block"}
                        </ActionButton>
                      )}
                      {user.id !== session?.id && !user.isAdmin && (
                        <ActionButton
                          size="xs"
                          variant="outline"
                          aria-pressed={user.isModerator}
                          busy={action.isPending}
                          onClick={() =>
                            action.mutate({ id: user.id, action: user.isModerator ? "no-moderator" : "moderator" })
                          }
                        >
                          {user.isModerator ? "Remove moderator" : "Make moderator"}
                        </ActionButton>
                      )}
                      <Button asChild size="xs" variant="outline">
                        <RouterLink to="/send-mail" state={{ email: user.email, id: user.id, name: fullName(user) }}>
                          Message
                        </RouterLink>
                      </Button>
                      {user.id !== session?.id && (
                        <ActionButton
                          size="xs"
                          colorPalette="yellow"
                          variant={user.isRewardedByMe ? "solid" : "outline"}
                          aria-pressed={user.isRewardedByMe}
                          busy={action.isPending}
                          onClick={() => action.mutate({ id: user.id, action: "likes" })}
                        >
                          Reward
                        </ActionButton>
                      )}
                      {user.id !== session?.id && user.isWalletVerified && user.walletAddress && (
                        <TipButton
                          to={{
                            name: fullName(user),
                            walletAddress: user.walletAddress,
                            recordAt: `/api/users/tip/${user.id}`,
                            hashField: "transectionHash",
                            note: "The tip is recorded as your reward once it is confirmed.",
                            recorded: "Tip recorded as your reward.",
                          }}
                          onPaid={reloadRewards}
                        />
                      )}
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
    </PagedList>
  );
}
