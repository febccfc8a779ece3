import type { PostFilter } from "#shared/reader-pages.ts";
import type { Payment } from "#shared/schemas/payments.ts";

const postDetail = (id: string) => ["posts", "detail", id] as const;

/**
 * Every TanStack Query key of the client, one root per resource, so invalidating a root reaches everything under
 * it and no feature writes a literal key. Features import these, never each other's keys.
 */
export const queryKeys = {
  posts: {
    /** Lists, drafts and details: what creating, editing or deleting a post may change. */
    all: () => ["posts"] as const,
    lists: () => ["posts", "list"] as const,
    list: (filter: PostFilter) => ["posts", "list", filter] as const,
    detail: postDetail,
    /** The signed-in author's drafts and scheduled posts. */
    drafts: () => ["posts", "drafts"] as const,
    /** Its revisions and what is left to sign: under the post's key, so an edit reloads it. */
    provenance: (id: string) => [...postDetail(id), "provenance"] as const,
  },
  comments: {
    one: (id: string) => ["comments", id] as const,
    /** Under the post's key, so the post's reload takes its older comments along. */
    older: (postId: string, firstCursor: string | null) => [...postDetail(postId), "comments", firstCursor] as const,
  },
  categories: {
    all: () => ["categories"] as const,
    one: (id: string) => ["categories", id] as const,
  },
  users: {
    /** A user's public details. */
    summary: (id: string) => ["users", "summary", id] as const,
    profiles: () => ["users", "profile"] as const,
    profile: (id: string) => ["users", "profile", id] as const,
    /** Whether the reader follows the user: under their profile, so what reloads the profile reloads it too. */
    follow: (id: string) => ["users", "profile", id, "follow"] as const,
    /** The admin's list of every user. */
    adminList: () => ["users", "admin-list"] as const,
  },
  payments: {
    /** Payments, tips and rewards. */
    all: () => ["payments"] as const,
    list: (purpose?: Payment["purpose"]) =>
      purpose ? (["payments", "list", purpose] as const) : (["payments", "list"] as const),
    rewards: (userId?: string) =>
      userId ? (["payments", "rewards", userId] as const) : (["payments", "rewards"] as const),
  },
  notifications: {
    /** Everything of the signed-in user's notifications: what marking read changes. */
    all: () => ["notifications"] as const,
    list: () => ["notifications", "list"] as const,
    unread: () => ["notifications", "unread"] as const,
    settings: () => ["notifications", "settings"] as const,
  },
  /** What the fediverse sent back (replies, likes, boosts), the replies waiting for approval, blocked domains. */
  federation: {
    all: () => ["federation"] as const,
    post: (postId: string) => ["federation", "post", postId] as const,
    pending: () => ["federation", "pending"] as const,
    blockedDomains: () => ["federation", "blocked-domains"] as const,
  },
  /** The site's rules, the moderators' queue, the public log. */
  moderation: {
    all: () => ["moderation"] as const,
    rules: () => ["moderation", "rules"] as const,
    queue: (status: string, kind?: string, rule?: string, origin?: string) =>
      ["moderation", "queue", status, kind ?? "all", rule ?? "any", origin ?? "anywhere"] as const,
    log: () => ["moderation", "log"] as const,
    mine: () => ["moderation", "mine"] as const,
    terms: () => ["moderation", "terms"] as const,
    decisions: () => ["moderation", "decisions"] as const,
    byLink: (actionId: string) => ["moderation", "by-link", actionId] as const,
    appeals: () => ["moderation", "appeals"] as const,
  },
  /** Whom the signed-in user blocked and muted, their muted words, and their comment settings. */
  blocks: {
    all: () => ["blocks"] as const,
    relations: () => ["blocks", "relations"] as const,
    commentSettings: () => ["blocks", "comment-settings"] as const,
    waiting: (postId: string) => ["blocks", "waiting", postId] as const,
  },
  /** The signed-in user's latest import of an archive. */
  imports: {
    latest: () => ["imports", "latest"] as const,
  },
  /** The signed-in user's archive of their data. */
  /** The signed-in user's personal access tokens (never their secrets). */
  tokens: {
    all: () => ["tokens"] as const,
  },
  exports: {
    latest: () => ["exports", "latest"] as const,
  },
  /** The signed-in user's webhooks and each one's deliveries. */
  webhooks: {
    all: () => ["webhooks"] as const,
    deliveries: (id: string) => ["webhooks", id, "deliveries"] as const,
  },
  /** An author's e-mail subscribers, as they see them. */
  subscribers: {
    counts: (authorId: string) => ["subscribers", authorId] as const,
  },
  /** An author's, a post's or the site's numbers over a period; the live "reading now" count of the signed-in author. */
  stats: {
    all: () => ["stats"] as const,
    of: (path: string, from: string, to: string, interval: string) => ["stats", path, from, to, interval] as const,
    readingNow: () => ["stats", "reading-now"] as const,
  },
  /** The site's name and description. */
  settings: () => ["settings"] as const,
  /** What an admin sees of the running system. */
  systemStatus: () => ["system", "status"] as const,
  /** The server's public configuration (chain, fee). */
  config: () => ["config"] as const,
  /** wagmi's own root for the balances RainbowKit shows. */
  walletBalances: () => ["balance"] as const,
};

/** The id of a post detail's key, or null for any other key (older comments sit under it). */
export const postDetailId = (key: readonly unknown[]) =>
  key[0] === "posts" && key[1] === "detail" && key.length === 3 && typeof key[2] === "string" ? key[2] : null;
