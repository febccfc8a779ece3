import { z } from "../zod.ts";
import { userSummarySchema } from "./users.ts";

export const MUTED_WORDS_MAX = 100;

/** Whom the signed-in user blocked and muted, and the words they muted. */
export const relationsSchema = z.object({
  blocked: z.array(userSummarySchema),
  muted: z.array(userSummarySchema),
  words: z.array(z.string()),
});
export type Relations = z.infer<typeof relationsSchema>;

/** Where a block or a mute stands after it was set. */
export const relationResultSchema = z.object({ blocking: z.boolean(), muting: z.boolean() });
export type RelationResult = z.infer<typeof relationResultSchema>;

/** Muted words: each matched in lower case anywhere in a post's title or description, or a notification's post. */
export const mutedWordsInputSchema = z.object({
  words: z
    .array(
      z
        .string()
        .check(
          z.trim(),
          z.toLowerCase(),
          z.minLength(2, "A muted word has at least 2 characters"),
          z.maxLength(50, "A muted word has at most 50 characters"),
        ),
    )
    .check(z.maxLength(MUTED_WORDS_MAX, `Mute at most ${MUTED_WORDS_MAX} words`)),
});
export type MutedWordsInput = z.infer<typeof mutedWordsInputSchema>;

export const CANNOT_FOLLOW = "You cannot follow this person";
/** The follower's own block is theirs to know and to lift; a block by the other side is not said. */
export const CANNOT_FOLLOW_BLOCKED = "You cannot follow this person because you blocked them. Unblock them first.";
export const CANNOT_COMMENT = "You cannot comment on this author's posts";
export const CANNOT_MESSAGE = "You cannot message this person";
export const CANNOT_TIP = "You cannot tip this author";
