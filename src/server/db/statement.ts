import type { Query, SQL } from "drizzle-orm";
import { PgDialect, type PgPreparedQuery, type PreparedQueryConfig } from "drizzle-orm/pg-core";
import { CASING, type Db } from "./client.ts";

/** Writes a statement's SQL text as the app's databases do. */
const dialect = new PgDialect({ casing: CASING });

/**
 * A statement written by hand (`sql`…``) whose text is built once: `build` names each value it takes with
 * `sql.placeholder(name)`, and each call fills them in. Drizzle builds an `sql` template by walking every piece of
 * it, so the app's long statements (a like, a notification, a comment) cost more to build on each call than
 * PostgreSQL then took to run them; built once, a call costs only its values. The answer is the rows, as
 * `db.execute` gives them. `db` may be a transaction.
 */
export function statement<Values extends Record<string, unknown>, Row>(build: () => SQL) {
  let query: Query | undefined;
  // One prepared query per session (the pool's, or a transaction's); a transaction's goes with it.
  const prepared = new WeakMap<object, PgPreparedQuery<PreparedQueryConfig>>();
  return async (db: Db, values: Values): Promise<Row[]> => {
    query ??= dialect.sqlToQuery(build());
    const session = db._.session;
    let ready = prepared.get(session);
    if (!ready) {
      ready = session.prepareQuery(query, undefined, undefined, false);
      prepared.set(session, ready);
    }
    return ((await ready.execute(values)) as { rows: Row[] }).rows;
  };
}

/**
 * A query built with Drizzle's builder once per database, for a read that runs on every write: `build` makes it
 * with `sql.placeholder(name)` for its values and `.prepare()`s it; `db` may be a transaction, whose query is its own.
 */
export function preparedFor<Prepared extends object>(build: (db: Db) => Prepared) {
  const byDb = new WeakMap<Db, Prepared>();
  return (db: Db): Prepared => {
    let ready = byDb.get(db);
    if (!ready) {
      ready = build(db);
      byDb.set(db, ready);
    }
    return ready;
  };
}
