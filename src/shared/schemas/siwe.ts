import { z } from "../zod.ts";

export const siweNonceSchema = z.object({ nonce: z.string() });
export const siweProofSchema = z.object({
  message: z.string({ error: "Message is required" }).check(z.minLength(1, "Message is required"), z.maxLength(2000)),
  signature: z.string({ error: "Signature is required" }).check(z.regex(/^0x[0-9a-fA-F]+$/, "Signature must be hex")),
});
export type SiweProof = z.infer<typeof siweProofSchema>;
/** Linking a wallet: replacing a verified one also asks for the current password. */
export const linkWalletSchema = z.extend(siweProofSchema, {
  currentPassword: z.optional(z.string().check(z.maxLength(128))),
});
export type LinkWalletInput = z.infer<typeof linkWalletSchema>;
