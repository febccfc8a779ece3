/** An error whose status and message are meant for the client. Anything else becomes a bare 500. */
export class HttpError extends Error {
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(statusCode: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.statusCode = statusCode;
    this.headers = headers;
  }

  issues: { path: string; message: string }[] | undefined;
}

/**
 * A 400 (or `status`: 409 for a value someone else holds) whose message is the first failing field's, as the spec's
 * forms show it (docs/specification.md §Validation rules); the form shows each issue beside its field.
 */
export function validationError(issues: { path: PropertyKey[]; message: string }[], status = 400): HttpError {
  const error = new HttpError(status, issues[0]?.message ?? "Invalid input");
  error.issues = issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
  return error;
}
