import { z } from "zod";

/** The login response; the client keeps it in localStorage under `userInfo`. */
export const sessionSchema = z.object({
  _id: z.string(),
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  profilePhoto: z.string().nullable(),
  isAdmin: z.boolean(),
  /** Works the moderation queue; older stored sessions have no such field. */
  isModerator: z.boolean().default(false),
  isVerified: z.boolean(),
  walletAddress: z.string().nullable(),
  /** A session started by signing with the wallet ends when that wallet disconnects or switches accounts. */
  loginMethod: z.enum(["password", "wallet"]).default("password"),
  token: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
