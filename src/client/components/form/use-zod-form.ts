import { zodResolver } from "@hookform/resolvers/zod";
import { useLayoutEffect } from "react";
import { type FieldValues, type Path, type UseFormProps, useForm } from "react-hook-form";
import type { z } from "#shared/zod.ts";
import { ApiError } from "../../lib/api-client.ts";
import { markShownAtFields } from "./shown-at-fields.ts";

type Options<S extends z.ZodMiniType<FieldValues, FieldValues>> = Omit<
  UseFormProps<z.input<S>, unknown, z.output<S>>,
  "resolver" | "mode"
> & {
  /** The submit's error: the server's field `issues` are shown beside their fields. */
  serverError?: unknown;
};

/**
 * Every form: the shared zod schema checks each field once it has been left (docs/specification.md §Validation rules:
 * its messages come from the schema), and what the server refuses field by field appears beside that field too.
 */
export function useZodForm<S extends z.ZodMiniType<FieldValues, FieldValues>>(
  schema: S,
  { serverError, ...options }: Options<S> = {},
) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's types cannot follow a generic schema; the form's own types above are the ones callers see.
    resolver: zodResolver(schema as never) as never,
    mode: "onTouched",
    ...options,
  });
  const { setError, getValues } = form;
  // Before paint, so a refusal never shows twice (beside its field and in the form's error line).
  useLayoutEffect(() => {
    if (!(serverError instanceof ApiError) || serverError.issues.length === 0) return;
    const values = getValues() as Record<string, unknown>;
    const atFields = serverError.issues.filter((issue) => valueAt(values, issue.path) !== undefined);
    for (const issue of atFields) {
      setError(issue.path as Path<z.input<S>>, { type: "server", message: issue.message });
    }
    if (atFields.length === serverError.issues.length) markShownAtFields(serverError);
  }, [serverError, setError, getValues]);
  return form;
}

const valueAt = (values: Record<string, unknown>, path: string): unknown =>
  path === ""
    ? undefined
    : path.split(".").reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], values);
