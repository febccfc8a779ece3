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
  isVerified: z.boolean(),
  walletAddress: z.string().nullable(),
  token: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
