/** An error whose status and message are meant for the client. Anything else becomes a bare 500. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  issues: { path: string; message: string }[] | undefined;
}

/** A 400 whose message is the first failing field's, as the spec's forms show it. */
export function validationError(issues: { path: PropertyKey[]; message: string }[]): HttpError {
  const error = new HttpError(400, issues[0]?.message ?? "Invalid input");
  error.issues = issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  return error;
}
