import { Box, Heading, Stack, Text } from "@chakra-ui/react";
import { useNavigate } from "react-router-dom";
import { CLOSING_GRACE_DAYS, closeAccountSchema } from "#shared/schemas/leaving.ts";
import { CheckboxField } from "../../../components/form/checkbox-field.tsx";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { useCloseAccount } from "../api/close-account.ts";

/**
 * "Close your account", with the password. Every session ends at once (this one too), so the app goes to the login
 * page and says when the account will be erased and how to keep it.
 */
export function CloseAccountForm() {
  const close = useCloseAccount();
  const navigate = useNavigate();
  const form = useZodForm(closeAccountSchema, {
    serverError: close.error,
    // A person's writing does not go by default: removing it is the choice they make.
    defaultValues: { password: "", keepPosts: true },
  });
  const onSubmit = form.handleSubmit((input) =>
    close.mutate(input, { onSuccess: () => navigate("/login", { replace: true }) }),
  );
  return (
    <Box
      as="section"
      aria-labelledby="close-heading"
      borderWidth="1px"
      borderColor="border.error"
      borderRadius="lg"
      p="5"
    >
      <Stack asChild gap="4">
        <form onSubmit={onSubmit} noValidate>
          <Heading as="h2" id="close-heading" size="lg">
            Close your account
          </Heading>
          <Text>
            Your account is erased {CLOSING_GRACE_DAYS} days after you ask: your profile, e-mail, wallet, likes,
            follows, drafts and subscribers. Your comments stay, under “A former member”; payments stay in the site's
            books without your name. Sign in within the {CLOSING_GRACE_DAYS} days and nothing is erased.
          </Text>
          <CheckboxField
            label="Keep my published posts on the site, under “A former member”"
            hint="Unticked, your posts are removed with your account."
            registration={form.register("keepPosts")}
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            registration={form.register("password")}
            error={form.formState.errors.password}
          />
          <ErrorLines error={close.error} />
          <SubmitButton pending={close.isPending} colorPalette="red">
            Close my account
          </SubmitButton>
        </form>
      </Stack>
    </Box>
  );
}
