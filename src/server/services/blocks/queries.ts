import { type SQL, sql } from "drizzle-orm";

/**
 * The statements' pieces of blocks and mutes, for the queries of other rooms (comments, follows, notifications,
 * the Following feed): each is a condition on column expressions the caller names.
 */

/** `owner` blocked `other`. */
export const blocks = (owner: SQL, other: SQL) =>
  sql`exists (select 1 from user_blocks b where b.blocker_id = ${owner} and b.blocked_id = ${other})`;

/** `owner` muted `other`. */
export const mutes = (owner: SQL, other: SQL) =>
  sql`exists (select 1 from user_mutes m where m.muter_id = ${owner} and m.muted_id = ${other})`;

/** `owner` blocked or muted `other`: what they do is not shown to `owner`. */
export const silences = (owner: SQL, other: SQL) => sql`(${blocks(owner, other)} or ${mutes(owner, other)})`;

/** `text` holds one of the words `owner` muted (in lower case, anywhere in it). */
export const holdsMutedWord = (owner: SQL, text: SQL) =>
  sql`exists (select 1 from muted_words w where w.user_id = ${owner} and strpos(lower(${text}), w.word) > 0)`;
