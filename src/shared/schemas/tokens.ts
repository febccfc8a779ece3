import { SCOPES } from "../scopes.ts";
import { z } from "../zod.ts";

export const TOKEN_NAME_MAX = 80;
export const TOKEN_EXPIRY_DAYS_MAX = 366;
export const TOKENS_PER_USER_MAX = 50;

export const scopeSchema = z.enum(SCOPES, "Unknown scope");

export const createTokenSchema = z.object({
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, "Give the token a name"),
      z.maxLength(TOKEN_NAME_MAX, `A name is at most ${TOKEN_NAME_MAX} characters`),
    ),
  scopes: z
    .array(scopeSchema)
    .check(z.minLength(1, "Choose at least one scope"), z.maxLength(SCOPES.length, "Too many scopes")),
  /** Days until it stops working; without it, it works until revoked. */
  expiresInDays: z.optional(
    z
      .number()
      .check(
        z.int(),
        z.gte(1, "At least one day"),
        z.lte(TOKEN_EXPIRY_DAYS_MAX, `At most ${TOKEN_EXPIRY_DAYS_MAX} days`),
      ),
  ),
});
export type CreateTokenInput = z.input<typeof createTokenSchema>;

export const tokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  expiresAt: z.nullable(z.string()),
});
export type ApiToken = z.infer<typeof tokenSchema>;

/** The one answer that holds the secret: it is never shown again. */
export const createdTokenSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes: z.array(scopeSchema),
  token: z.string(),
  expiresAt: z.nullable(z.string()),
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;

export const tokenListSchema = z.object({ items: z.array(tokenSchema) });
export const tokenIdParamsSchema = z.object({ id: z.uuid("Unknown token") });
