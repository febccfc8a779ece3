import { WALLET_ADDRESS_REGEX } from "../constants.ts";
import { HANDLE_MESSAGE, HANDLE_PATTERN, HANDLE_RESERVED_MESSAGE, RESERVED_HANDLES } from "../handles.ts";
import { z } from "../zod.ts";
import { siweProofSchema } from "./siwe.ts";
import { tipTotalsSchema } from "./tips.ts";

/** Accounts and users. The messages are docs/specification.md §Validation rules, word for word. */

const required = (message: string) => z.string({ error: message }).check(z.trim(), z.minLength(1, message));

export const passwordSchema = z.string({ error: "Password is required" }).check(
  z.minLength(1, "Password is required"),
  z.refine((value) => value.trim().length > 0, "Password is required"),
  z.minLength(8, "Password must be at least 8 characters"),
  z.maxLength(128, "Password must be at most 128 characters"),
);

export const walletAddressSchema = z
  .string({ error: "Wallet Address is required" })
  .check(
    z.trim(),
    z.minLength(1, "Wallet Address is required"),
    z.regex(WALLET_ADDRESS_REGEX, "Wallet Address must be exactly 42 characters long"),
  );

/** docs/specification.md §Password reset request: the answer for every address, known or not (docs/product.md). */
export const RESET_SENT = "Email is successfully sent to your email. Verify it within 10 minutes.";

export const EMAIL_FORMAT_MESSAGE = "Enter one e-mail address, like name@example.com";

/**
 * One plain address, lower-cased: no lists, display names or line breaks, which would send mail to others. The spec's
 * forms have no format message of their own (docs/specification.md §Validation rules); this one comes from the server
 * like any other refusal.
 */
export const emailSchema = (message: string) =>
  z.pipe(
    required(message).check(z.maxLength(254, "Email is too long"), z.toLowerCase()),
    z.email(EMAIL_FORMAT_MESSAGE),
  );

const nameSchema = (message: string) => required(message).check(z.maxLength(60, "Names are at most 60 characters"));

/** Typed with an "@" or in capitals, it is still the same handle. */
export const handleSchema = z.pipe(
  z.pipe(
    z.string().check(z.trim()),
    z.transform((value) => value.replace(/^@/, "").toLowerCase()),
  ),
  z.string().check(
    z.regex(HANDLE_PATTERN, HANDLE_MESSAGE),
    z.refine((value) => !RESERVED_HANDLES.has(value), HANDLE_RESERVED_MESSAGE),
  ),
);

export const registerSchema = z.object({
  firstName: nameSchema("First Name is required"),
  lastName: nameSchema("Last Name is required"),
  email: emailSchema("Email is required"),
  password: passwordSchema,
  walletAddress: walletAddressSchema,
  /** Signing a SIWE message with that wallet while registering verifies it at once. */
  walletProof: z.optional(siweProofSchema),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email: emailSchema("Email is required"),
  password: z.string({ error: "Password is required" }).check(z.minLength(1, "Password is required"), z.maxLength(128)),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const updateProfileSchema = z.object({
  firstName: nameSchema("First Name is required"),
  lastName: nameSchema("Last Name is required"),
  email: emailSchema("Email is required"),
  bio: required("Bio is required").check(z.maxLength(1000, "Bio is at most 1000 characters")),
  /** Not in the spec (docs/product.md, "The fediverse"): the fediverse handle; unchanged when left out. */
  handle: z.optional(handleSchema),
  /** Required when the e-mail changes. */
  currentPassword: z.optional(z.string().check(z.maxLength(128))),
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

/** Re-authentication: a stolen session alone cannot change the password or the e-mail. */
export const currentPasswordSchema = z
  .string({ error: "Current Password is required" })
  .check(z.minLength(1, "Current Password is required"), z.maxLength(128));
/** Offered beside a new password: a wallet verified by someone holding a stolen session stops logging in. */
const unlinkWalletField = { unlinkWallet: z.optional(z.boolean()) };
/** The new password first: an empty form answers 'Password is required' (docs/specification.md §Validation rules). */
export const changePasswordSchema = z.object({
  password: passwordSchema,
  currentPassword: currentPasswordSchema,
  ...unlinkWalletField,
});
export const newPasswordSchema = z.object({ password: passwordSchema, ...unlinkWalletField });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;
export const forgetPasswordSchema = z.object({ email: emailSchema("Email is required") });
export const resetPasswordSchema = z.object({
  password: passwordSchema,
  token: required("Token is required").check(z.maxLength(200)),
  ...unlinkWalletField,
});
export const verifyAccountSchema = z.object({ token: required("Token is required").check(z.maxLength(200)) });
export const followSchema = z.object({ followId: z.uuid("followId must be a user id") });
export const unfollowSchema = z.object({ unFollowId: z.uuid("unFollowId must be a user id") });
export const userIdParamsSchema = z.object({ id: z.uuid("Invalid user id") });

const subjectSchema = required("Subject is required").check(
  z.maxLength(200, "Subject is at most 200 characters"),
  z.refine((value) => !/[\r\n]/.test(value), "Subject must be a single line"),
);
const messageBodySchema = required("Message is required").check(
  z.maxLength(10_000, "Message is at most 10000 characters"),
);

/**
 * A message to a registered user, addressed by e-mail (admins see addresses) or by user id (anyone else writing
 * from a profile, who never sees the address).
 */
export const sendMailSchema = z
  .object({
    to: z.optional(
      z.string().check(
        z.trim(),
        z.maxLength(254, "Email is too long"),
        z.toLowerCase(),
        z.refine((value) => value === "" || z.email().safeParse(value).success, EMAIL_FORMAT_MESSAGE),
      ),
    ),
    toId: z.optional(z.uuid("toId must be a user id")),
    subject: subjectSchema,
    message: messageBodySchema,
  })
  .check(
    z.superRefine((mail, ctx) => {
      if (!mail.to && !mail.toId) ctx.addIssue({ code: "custom", path: ["to"], message: "Recipent Email is required" });
    }),
  );
export type SendMailInput = z.infer<typeof sendMailSchema>;

export const accountTypeSchema = z.enum(["Starter Account", "Pro Account"]);

/** What anyone may see of a user. */
export const publicUserSchema = z.object({
  _id: z.string(),
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** `@handle@host` on the fediverse. */
  handle: z.string(),
  bio: z.string(),
  profilePhoto: z.nullable(z.string()),
  isAdmin: z.boolean(),
  isAccountVerified: z.boolean(),
  accountType: accountTypeSchema,
  walletAddress: z.nullable(z.string()),
  isWalletVerified: z.boolean(),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** The user themself and admins also see the e-mail, the blocked state and the moderator role. */
export const privateUserSchema = z.extend(publicUserSchema, {
  email: z.string(),
  isBlocked: z.boolean(),
  isModerator: z.boolean(),
});
export type PrivateUser = z.infer<typeof privateUserSchema>;

export const userSummarySchema = z.pick(publicUserSchema, {
  _id: true,
  id: true,
  firstName: true,
  lastName: true,
  profilePhoto: true,
});
export type UserSummary = z.infer<typeof userSummarySchema>;

export const roleInputSchema = z.object({ moderator: z.boolean({ error: "Say whether they moderate" }) });

export const adminUserListItemSchema = z.extend(privateUserSchema, {
  followersCount: z.int(),
  postCount: z.int(),
  rewardsCount: z.int(),
  isRewardedByMe: z.boolean(),
});

export const profilePostSchema = z.object({
  _id: z.string(),
  id: z.string(),
  title: z.string(),
  image: z.nullable(z.string()),
  category: z.string(),
  isFeatured: z.boolean(),
  numViews: z.int(),
  /** Published posts only, so never null here. */
  publishedAt: z.string(),
  createdAt: z.string(),
});

export const profileSchema = z.extend(publicUserSchema, {
  email: z.optional(z.string()),
  followersCount: z.int(),
  /** Followers on the fediverse, apart from the local ones. */
  fediverseFollowersCount: z.int(),
  followingCount: z.int(),
  viewersCount: z.int(),
  postCount: z.int(),
  rewardsCount: z.int(),
  /** Readers' tips received (those that stayed on chain). */
  tipsReceived: tipTotalsSchema,
  isFollowing: z.boolean(),
  viewedBy: z.array(userSummarySchema),
  posts: z.array(profilePostSchema),
});
export type Profile = z.infer<typeof profileSchema>;

export const followResultSchema = z.object({ isFollowing: z.boolean(), followersCount: z.int() });
export const rewardResultSchema = z.object({ isRewarded: z.boolean(), rewardsCount: z.int() });
export const messageSchema = z.object({ message: z.string() });
