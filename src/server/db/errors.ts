type PgError = { code?: string; constraint?: string; message?: string; cause?: unknown };

/** Finds one of PostgreSQL's error `codes` on the error or the driver errors it wraps, optionally for one constraint. */
function hasPgCode(error: unknown, codes: string[], constraint?: string): boolean {
  for (let current = error as PgError | undefined; current; current = current.cause as PgError | undefined) {
    if (current.code && codes.includes(current.code)) {
      return !constraint || current.constraint === constraint || Boolean(current.message?.includes(constraint));
    }
  }
  return false;
}

export const isUniqueViolation = (error: unknown, constraint?: string) => hasPgCode(error, ["23505"], constraint);
/** 23503 for a missing referenced row, 23001 when ON DELETE RESTRICT protects a referenced one. */
export const isForeignKeyViolation = (error: unknown, constraint?: string) =>
  hasPgCode(error, ["23503", "23001"], constraint);
