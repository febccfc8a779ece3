import { Badge, Box, Code, Heading, Link, Spinner, Stack, Table, Tabs, Text } from "@chakra-ui/react";
import { tableSlotRecipe, tabsSlotRecipe } from "@chakra-ui/react/theme";
import type { Payment } from "#shared/schemas/payments.ts";
import { formatEth } from "#shared/text.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { PagedList } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { formatDate, fullName, shortHex } from "../../../lib/format.ts";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { usePayments, useRewards } from "../api/payments.ts";

function TxLink({ hash, explorerUrl }: { hash: string; explorerUrl: string | null }) {
  if (!explorerUrl) return <Code title={hash}>{shortHex(hash)}</Code>;
  return (
    <Link href={explorerUrl} target="_blank" rel="noreferrer" color="teal.fg" title={hash}>
      {shortHex(hash)}
    </Link>
  );
}

function PaymentTable({ purpose }: { purpose: Payment["purpose"] }) {
  useSlotRecipes({ table: tableSlotRecipe });
  const payments = usePayments(purpose);
  return (
    <PagedList pages={payments} label="Loading payments" empty="No payment yet.">
      {(items) =>
        items.length > 0 && (
          <Box overflowX="auto">
            <Table.Root size="sm" variant="outline">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{purpose === "featured" ? "Post" : "Tipped by"}</Table.ColumnHeader>
                  <Table.ColumnHeader>Payer</Table.ColumnHeader>
                  {purpose === "tip" && <Table.ColumnHeader>To wallet</Table.ColumnHeader>}
                  <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Block</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">Confirmations</Table.ColumnHeader>
                  <Table.ColumnHeader>Status</Table.ColumnHeader>
                  <Table.ColumnHeader>Transaction</Table.ColumnHeader>
                  <Table.ColumnHeader>Date</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {items.map((payment) => (
                  <Table.Row key={payment.id}>
                    <Table.Cell>
                      {payment.post ? (
                        <Link asChild color="teal.fg">
                          <RouterLink to={`/posts/${payment.post.id}`}>{payment.post.title}</RouterLink>
                        </Link>
                      ) : (
                        <Link asChild>
                          <RouterLink to={`/profile/${payment.user.id}`}>{fullName(payment.user)}</RouterLink>
                        </Link>
                      )}
                    </Table.Cell>
                    <Table.Cell>
                      <Code title={payment.payer}>{shortHex(payment.payer)}</Code>
                    </Table.Cell>
                    {purpose === "tip" && (
                      <Table.Cell>
                        <Code title={payment.recipient}>{shortHex(payment.recipient)}</Code>
                      </Table.Cell>
                    )}
                    <Table.Cell textAlign="end">{formatEth(payment.amountWei)}</Table.Cell>
                    <Table.Cell textAlign="end">{payment.blockNumber}</Table.Cell>
                    <Table.Cell textAlign="end">{payment.confirmations}</Table.Cell>
                    <Table.Cell>
                      <PaymentStatus status={payment.status} />
                    </Table.Cell>
                    <Table.Cell>
                      <TxLink hash={payment.txHash} explorerUrl={payment.explorerUrl} />
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{formatDate(payment.createdAt)}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )
      }
    </PagedList>
  );
}

/** Featured fees and tips, each verified on-chain by the server when it was recorded. */
export function PaymentsTabs() {
  useSlotRecipes({ tabs: tabsSlotRecipe });
  return (
    <Tabs.Root defaultValue="featured" variant="line" lazyMount>
      <Tabs.List>
        <Tabs.Trigger value="featured">Featured posts</Tabs.Trigger>
        <Tabs.Trigger value="tip">Tips</Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="featured">
        <PaymentTable purpose="featured" />
      </Tabs.Content>
      <Tabs.Content value="tip">
        <PaymentTable purpose="tip" />
      </Tabs.Content>
    </Tabs.Root>
  );
}

/** One user's rewards: which admins rewarded them, and the tip each sent. */
export function UserRewards({ userId }: { userId: string }) {
  const rewards = useRewards(userId);
  return (
    <Box as="section" aria-labelledby="rewards-heading" borderWidth="1px" borderRadius="lg" p="4">
      <Heading as="h2" id="rewards-heading" size="md" mb="3">
        Rewards
      </Heading>
      {rewards.isPending && <Spinner aria-label="Loading rewards" />}
      <ErrorLines error={rewards.error} />
      {rewards.data?.items.length === 0 && <Text color="fg.muted">No reward yet.</Text>}
      <Stack as="ul" listStyleType="none" gap="2">
        {rewards.data?.items.map((reward) => (
          <Text as="li" key={reward.id}>
            {fullName(reward.admin)} · {formatDate(reward.createdAt)}
            {reward.tip && (
              <>
                {" "}
                · tipped {formatEth(reward.tip.amountWei)} (
                <TxLink hash={reward.tip.txHash} explorerUrl={reward.tip.explorerUrl} />)
              </>
            )}
          </Text>
        ))}
      </Stack>
    </Box>
  );
}

const STATUS = {
  confirming: { label: "Confirming", palette: "yellow", title: "Accepted; checked again until it is final" },
  final: { label: "Final", palette: "green", title: "Deep enough in the chain not to be reorganised" },
  reorged: { label: "Reorged", palette: "red", title: "The transaction left the chain; a featured post lost its flag" },
} as const;

function PaymentStatus({ status }: { status: Payment["status"] }) {
  const { label, palette, title } = STATUS[status];
  return (
    <Badge colorPalette={palette} title={title}>
      {label}
    </Badge>
  );
}
