import { z } from "../zod.ts";

/** Federation: what the fediverse sent back to a post, and the admin's blocked domains. */

export const remoteReplySchema = z.object({
  id: z.string(),
  postId: z.string(),
  authorName: z.string(),
  /** `@name@host`. */
  authorHandle: z.string(),
  authorAvatar: z.nullable(z.string()),
  /** The reply on its own server. */
  url: z.nullable(z.string()),
  /** Sanitised HTML: paragraphs, line breaks and links only. */
  content: z.string(),
  status: z.enum(["pending", "approved"]),
  publishedAt: z.string(),
});
export type RemoteReply = z.infer<typeof remoteReplySchema>;

export const postFediverseSchema = z.object({
  replies: z.array(remoteReplySchema),
  likes: z.int(),
  boosts: z.int(),
});
export type PostFediverse = z.infer<typeof postFediverseSchema>;

/** A reply waiting for its post's author, with the post it answers. */
export const pendingReplySchema = z.extend(remoteReplySchema, { postTitle: z.string() });
export const pendingRepliesSchema = z.array(pendingReplySchema);
export type PendingReply = z.infer<typeof pendingReplySchema>;

export const DOMAIN_MESSAGE = "Enter a domain name, like mastodon.example";
/** A host name as typed (a pasted address or handle works too): lower case, no scheme, path or port. */
export const domainSchema = z.pipe(
  z.pipe(
    z.string({ error: DOMAIN_MESSAGE }).check(z.trim(), z.toLowerCase()),
    // A pasted address (scheme, path, port) or handle (`@name@host`) leaves its host.
    z.transform((value: string) =>
      value
        .replace(/^[a-z]+:\/\//, "")
        .replace(/[/?#].*$/, "")
        .replace(/^.*@/, "")
        .replace(/:\d*$/, "")
        // A fully qualified name's trailing dot names the same domain.
        .replace(/\.+$/, ""),
    ),
  ),
  z
    .string()
    .check(
      z.maxLength(253, DOMAIN_MESSAGE),
      z.regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, DOMAIN_MESSAGE),
    ),
);
export const blockDomainSchema = z.object({ domain: domainSchema });
export const domainParamsSchema = z.object({ domain: domainSchema });
export const DOMAIN_SEVERITIES = ["silence", "suspend"] as const;
export const blockedDomainSchema = z.object({
  domain: z.string(),
  /** `suspend`: refused; `silence`: its replies wait for approval. */
  severity: z._default(z.enum(DOMAIN_SEVERITIES), "suspend"),
  createdAt: z.string(),
});
export const blockedDomainsSchema = z.array(blockedDomainSchema);
export type BlockedDomain = z.infer<typeof blockedDomainSchema>;
