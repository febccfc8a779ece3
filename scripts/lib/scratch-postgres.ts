import crypto from "node:crypto";
import pg from "pg";

async function onServer(baseUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the server `baseUrl` names, for tests and benchmarks; `drop()` removes it. */
export async function scratchPostgres(baseUrl: string, prefix: string) {
  const name = `${prefix}_${crypto.randomBytes(6).toString("hex")}`;
  await onServer(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(baseUrl, `drop database if exists ${name} with (force)`) };
}

/** Drops a scratch database by its URL, for one whose process was killed before it could drop it itself. */
export async function dropScratchPostgres(baseUrl: string, databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^penchain_[a-z]+_[0-9a-f]{12}$/.test(name)) throw new Error(`not a scratch database: ${name}`);
  await onServer(baseUrl, `drop database if exists ${name} with (force)`);
}
