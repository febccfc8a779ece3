import { sessionSchema } from "#shared/schemas/session.ts";
import type { SiweProof } from "#shared/schemas/siwe.ts";
import { api } from "../../../lib/api-client.ts";

/** Logs in the account whose verified wallet signed; the answer is the same session as a password login. */
export const walletLogin = (proof: SiweProof) =>
  api("/api/auth/siwe/verify", sessionSchema, { method: "POST", body: proof });
