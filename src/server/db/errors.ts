/** True when the error (or the driver error Drizzle wraps) is PostgreSQL's unique violation, optionally on one index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (
    let current = error as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (current.code === "23505")
      return !constraint || current.constraint === constraint || Boolean(current.message?.includes(constraint));
  }
  return false;
}
