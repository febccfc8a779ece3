import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { type FieldValues, type Path, type UseFormProps, useForm } from "react-hook-form";
import type { z } from "zod";
import { ApiError } from "../../lib/api-client.ts";

type Options<S extends z.ZodType<FieldValues, FieldValues>> = Omit<
  UseFormProps<z.input<S>, unknown, z.output<S>>,
  "resolver" | "mode"
> & {
  /** The submit's error: the server's field `issues` are shown beside their fields. */
  serverError?: unknown;
};

/**
 * Every form: the shared zod schema checks each field once it has been left (the spec's messages come from it),
 * and what the server refuses field by field appears beside that field too.
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(
  schema: S,
  { serverError, ...options }: Options<S> = {},
) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    // The resolver's types cannot follow a generic schema; the form's own types above are the ones callers see.
    resolver: zodResolver(schema as never) as never,
    mode: "onTouched",
    ...options,
  });
  const { setError } = form;
  useEffect(() => {
    if (!(serverError instanceof ApiError)) return;
    for (const issue of serverError.issues) {
      if (issue.path) setError(issue.path as Path<z.input<S>>, { type: "server", message: issue.message });
    }
  }, [serverError, setError]);
  return form;
}
