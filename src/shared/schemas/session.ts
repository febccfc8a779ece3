import { z } from "../zod.ts";

/** The login response; the client keeps it in localStorage under `userInfo`. */
export const sessionSchema = z.object({
  _id: z.string(),
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  profilePhoto: z.nullable(z.string()),
  isAdmin: z.boolean(),
  /** Works the moderation queue; older stored sessions have no such field. */
  isModerator: z._default(z.boolean(), false),
  isVerified: z.boolean(),
  walletAddress: z.nullable(z.string()),
  /** A session started by signing with the wallet ends when that wallet disconnects or switches accounts. */
  loginMethod: z._default(z.enum(["password", "wallet"]), "password"),
  token: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
