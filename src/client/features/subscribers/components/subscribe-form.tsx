import { Box, Button, Field, Heading, Input, Stack, Text } from "@chakra-ui/react";
import { type FormEvent, useId, useState } from "react";
import { subscribeSchema } from "#shared/schemas/subscriptions.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { useSubscribe } from "../api/subscriptions.ts";

/**
 * "Subscribe by e-mail" under an author's posts and on their profile: an address, no account and no wallet. The
 * input is uncontrolled (no form library): on a server-rendered page what is typed before the app starts stays.
 */
export function SubscribeByEmail({ authorId, authorName }: { authorId: string; authorName: string }) {
  const subscribe = useSubscribe();
  const [issue, setIssue] = useState("");
  const id = useId();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = subscribeSchema.safeParse({ authorId, email: new FormData(event.currentTarget).get("email") });
    setIssue(parsed.success ? "" : (parsed.error.issues[0]?.message ?? ""));
    if (parsed.success) subscribe.mutate(parsed.data);
  };
  return (
    <Box as="section" aria-labelledby={`${id}-heading`} borderWidth="1px" borderRadius="lg" p="4" bg="bg.subtle">
      <Heading as="h2" id={`${id}-heading`} size="md">
        Subscribe by e-mail
      </Heading>
      <Text color="fg.muted" fontSize="sm" mt="1">
        Get {authorName}'s new posts in your inbox. No account or wallet needed; every mail has a one-click unsubscribe.
      </Text>
      {subscribe.isSuccess ? (
        <Text role="status" mt="3" fontWeight="medium">
          {subscribe.data.message}
        </Text>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <Stack direction={{ base: "column", sm: "row" }} gap="2" mt="3" align={{ sm: "flex-start" }}>
            <Field.Root flex="1" invalid={Boolean(issue)}>
              <Field.Label srOnly>Your e-mail address</Field.Label>
              <Input
                name="email"
                type="email"
                autoComplete="email"
                placeholder="you@example.com"
                maxLength={254}
                required
              />
              <Field.ErrorText>{issue}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" colorPalette="teal" loading={subscribe.isPending} loadingText="Subscribing">
              Subscribe
            </Button>
          </Stack>
        </form>
      )}
      <ErrorLines error={subscribe.error} />
    </Box>
  );
}
