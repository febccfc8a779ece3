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

/** Connection-level SQLSTATEs: connection exceptions (08), the server shutting down or starting (57P), too many clients. */
const UNAVAILABLE_CODES = /^(08...|57P0[1-3]|53300)$/;
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);
// What node-postgres and its pool say when the server cannot be reached or goes away mid-query.
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly)/;

type SocketError = PgError & { port?: number; hostname?: string; address?: string };

/**
 * Whether `error` says the PostgreSQL server at `server` cannot be reached right now (as opposed to refusing a
 * query). Socket errors count only when they name that server, so a failing S3 or RPC endpoint is not taken for it.
 */
export function isPostgresUnavailable(error: unknown, server: { host: string; port: number }): boolean {
  for (let current = error as SocketError | undefined; current; current = current.cause as SocketError | undefined) {
    if (current.code && UNAVAILABLE_CODES.test(current.code)) return true;
    if (current.message && UNAVAILABLE_MESSAGES.test(current.message)) return true;
    if (current.code && SOCKET_CODES.has(current.code)) {
      if (current.port === server.port || current.hostname === server.host) return true;
    }
  }
  return false;
}
