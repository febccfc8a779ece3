import { Field, HStack, Text } from "@chakra-ui/react";
import type { InputHTMLAttributes } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

/**
 * A native checkbox inside its label, so a click on the words, the keyboard and screen readers all work. A form
 * passes its `registration`; elsewhere the input's own props (`checked`, `onChange`, `disabled`). `hideLabel` keeps
 * the words for screen readers only (and the box inline, in a row of others).
 */
export function CheckboxField({
  label,
  hint,
  hideLabel,
  registration,
  ...input
}: {
  label: string;
  hint?: string;
  hideLabel?: boolean;
  registration?: UseFormRegisterReturn;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "type">) {
  return (
    <Field.Root width={hideLabel ? "auto" : undefined}>
      <HStack asChild gap="2" align="flex-start" cursor="pointer">
        <label>
          <input
            type="checkbox"
            {...registration}
            {...input}
            style={{ marginTop: "0.15em", width: "1rem", height: "1rem", accentColor: "var(--chakra-colors-teal-700)" }}
          />
          <span>
            <Text as="span" fontSize="sm" fontWeight={hint ? "medium" : undefined} srOnly={hideLabel}>
              {label}
            </Text>
            {hint && (
              <Text as="span" display="block" fontSize="sm" color="fg.muted">
                {hint}
              </Text>
            )}
          </span>
        </label>
      </HStack>
    </Field.Root>
  );
}

/** Offered beside a new password: a wallet verified by whoever had a stolen session stops logging in. */
export const UNLINK_WALLET = {
  label: "Also unlink my verified wallet",
  hint: "A verified wallet signs in without a password. Unlink it if you did not verify it yourself; you can verify yours again from your profile.",
};
