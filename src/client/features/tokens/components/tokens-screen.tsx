import { Badge, Box, Button, Code, Heading, HStack, Stack, Text } from "@chakra-ui/react";
import { useState } from "react";
import type { ApiToken, CreatedToken } from "#shared/schemas/tokens.ts";
import { createTokenSchema } from "#shared/schemas/tokens.ts";
import { isStaffScope, SCOPE_LABELS, SCOPES, type Scope } from "#shared/scopes.ts";
import { z } from "#shared/zod.ts";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SelectField } from "../../../components/form/select-field.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { QueryState } from "../../../components/query-state.tsx";
import { formatDate } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { useCreateToken, useRevokeToken, useTokens } from "../api/tokens.ts";

const EXPIRY = { "30": "In 30 days", "90": "In 90 days", "365": "In a year", never: "Never (until revoked)" } as const;
type Expiry = keyof typeof EXPIRY;

const formSchema = z.object({ name: createTokenSchema.shape.name, scopes: createTokenSchema.shape.scopes });

/** `/settings/tokens`: personal access tokens for scripts and agents (docs/tokens.md). */
export function TokensScreen() {
  const [created, setCreated] = useState<CreatedToken | null>(null);
  return (
    <Stack gap="8">
      <Stack gap="2">
        <Heading as="h1" size="2xl">
          API tokens
        </Heading>
        <Text color="fg.muted">
          A token lets a script or an AI agent act for you through the API or the MCP server at /mcp, with only the
          scopes you choose. Send it as <Code>Authorization: Bearer pcn_…</Code>. It never changes your password, e-mail
          or wallet, never closes your account, and stops at once if you revoke it.
        </Text>
      </Stack>
      {created ? <NewSecret token={created} onDone={() => setCreated(null)} /> : <NewTokenForm onMade={setCreated} />}
      <TokenList />
    </Stack>
  );
}

function NewTokenForm({ onMade }: { onMade: (token: CreatedToken) => void }) {
  const session = useSession();
  const create = useCreateToken();
  const [expiry, setExpiry] = useState<Expiry>("90");
  const form = useZodForm(formSchema, {
    serverError: create.error,
    defaultValues: { name: "", scopes: ["posts:read"] },
  });
  const staff = (scope: Scope) =>
    scope === "admin" ? Boolean(session?.isAdmin) : Boolean(session?.isAdmin || session?.isModerator);
  const offered = SCOPES.filter((scope) => !isStaffScope(scope) || staff(scope));
  const onSubmit = form.handleSubmit((input) =>
    create.mutate(
      { ...input, ...(expiry === "never" ? {} : { expiresInDays: Number(expiry) }) },
      { onSuccess: (made) => onMade(made) },
    ),
  );
  return (
    <Box as="section" aria-labelledby="new-token-heading" borderWidth="1px" borderRadius="lg" p="5">
      <Stack asChild gap="4">
        <form onSubmit={onSubmit} noValidate>
          <Heading as="h2" id="new-token-heading" size="lg">
            New token
          </Heading>
          <TextField
            label="Name"
            placeholder="What will use it, e.g. Publishing script"
            registration={form.register("name")}
            error={form.formState.errors.name}
          />
          <Stack as="fieldset" gap="2">
            <Text as="legend" fontSize="sm" fontWeight="medium" mb="2">
              Scopes
            </Text>
            {offered.map((scope) => (
              <CheckboxField
                key={scope}
                label={scope}
                hint={SCOPE_LABELS[scope]}
                value={scope}
                registration={form.register("scopes")}
              />
            ))}
            {form.formState.errors.scopes && (
              <Text role="alert" fontSize="sm" color="fg.error">
                {form.formState.errors.scopes.message}
              </Text>
            )}
          </Stack>
          <SelectField label="Expires" value={expiry} options={EXPIRY} onChange={setExpiry} width="16rem" />
          <ErrorLines error={create.error} />
          <SubmitButton pending={create.isPending}>Create token</SubmitButton>
        </form>
      </Stack>
    </Box>
  );
}

/** The secret, once: it is kept only as a hash, so it cannot be shown again. */
function NewSecret({ token, onDone }: { token: CreatedToken; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(token.token);
    setCopied(true);
  };
  return (
    <Box
      as="section"
      aria-labelledby="secret-heading"
      borderWidth="1px"
      borderColor="border.success"
      borderRadius="lg"
      p="5"
    >
      <Stack gap="4">
        <Heading as="h2" id="secret-heading" size="lg">
          Your new token “{token.name}”
        </Heading>
        <Text>Copy it now: it is shown this once and cannot be shown again.</Text>
        <Code
          data-testid="new-token"
          display="block"
          p="3"
          fontSize="sm"
          wordBreak="break-all"
          whiteSpace="pre-wrap"
          userSelect="all"
        >
          {token.token}
        </Code>
        <HStack gap="3" wrap="wrap">
          <Button colorPalette="teal" onClick={() => void copy()}>
            {copied ? "Copied" : "Copy token"}
          </Button>
          <Button variant="outline" onClick={onDone}>
            Done
          </Button>
          <Text role="status" aria-live="polite" fontSize="sm" color="fg.muted">
            {copied ? "The token is on your clipboard." : ""}
          </Text>
        </HStack>
      </Stack>
    </Box>
  );
}

function TokenList() {
  const tokens = useTokens();
  return (
    <Stack as="section" aria-labelledby="tokens-heading" gap="3">
      <Heading as="h2" id="tokens-heading" size="lg">
        Your tokens
      </Heading>
      <QueryState query={tokens} label="Loading your tokens">
        {(data) =>
          data.items.length === 0 ? (
            <Text color="fg.muted">You have no tokens.</Text>
          ) : (
            <Stack as="ul" gap="3" listStyleType="none">
              {data.items.map((token) => (
                <TokenItem key={token.id} token={token} />
              ))}
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

function TokenItem({ token }: { token: ApiToken }) {
  const revoke = useRevokeToken();
  const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= Date.now();
  return (
    <Box as="li" borderWidth="1px" borderRadius="lg" p="4">
      <Stack gap="2">
        <HStack justify="space-between" align="flex-start" gap="3" wrap="wrap">
          <Text fontWeight="semibold" wordBreak="break-word">
            {token.name}
          </Text>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            loading={revoke.isPending}
            aria-label={`Revoke ${token.name}`}
            onClick={() => {
              if (window.confirm(`Revoke “${token.name}”? Anything using it stops working at once.`))
                revoke.mutate(token.id);
            }}
          >
            Revoke
          </Button>
        </HStack>
        <HStack gap="1" wrap="wrap">
          {token.scopes.map((scope) => (
            <Badge key={scope} variant="subtle">
              {scope}
            </Badge>
          ))}
        </HStack>
        <Text fontSize="sm" color="fg.muted">
          Created {formatDate(token.createdAt)} ·{" "}
          {token.lastUsedAt ? `last used ${formatDate(token.lastUsedAt)}` : "never used"} ·{" "}
          {token.expiresAt ? `${expired ? "expired" : "expires"} ${formatDate(token.expiresAt)}` : "never expires"}
        </Text>
        <ErrorLines error={revoke.error} />
      </Stack>
    </Box>
  );
}
