import { z } from "zod";

export const siweNonceSchema = z.object({ nonce: z.string() });
export const siweProofSchema = z.object({
  message: z.string({ error: "Message is required" }).min(1, "Message is required").max(2000),
  signature: z.string({ error: "Signature is required" }).regex(/^0x[0-9a-fA-F]+$/, "Signature must be hex"),
});
export type SiweProof = z.infer<typeof siweProofSchema>;
/** Linking a wallet: replacing a verified one also asks for the current password. */
export const linkWalletSchema = siweProofSchema.extend({ currentPassword: z.string().max(128).optional() });
export type LinkWalletInput = z.infer<typeof linkWalletSchema>;
