import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { DELIVERIES, NOTIFICATION_KINDS, NOTIFICATION_TOPICS } from "#shared/schemas/notifications.ts";
import { DEFAULT_SITE_SETTINGS } from "#shared/schemas/settings.ts";

// Index orders are written `DESC NULLS FIRST` because that is what `ORDER BY … DESC` means in PostgreSQL: an index
// whose null order differs cannot serve the query's order, and every list would sort the whole table.
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const id = () => uuid("id").primaryKey().defaultRandom();
const userRef = (name: string) => uuid(name).references(() => users.id, { onDelete: "cascade" });

/** PostgreSQL's full-text document type; written only by the database (migration 0005's triggers). */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const users = pgTable(
  "users",
  {
    id: id(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** `@handle@host` on the fediverse: derived from the name at registration, changeable (src/shared/handles.ts). */
    handle: text("handle").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    bio: text("bio").notNull().default(""),
    profilePhoto: text("profile_photo"),
    isAdmin: boolean("is_admin").notNull().default(false),
    isBlocked: boolean("is_blocked").notNull().default(false),
    /** Works the moderation queue: a role between user and admin (src/shared/permissions.ts). */
    isModerator: boolean("is_moderator").notNull().default(false),
    /** When a moderator suspended the account: it cannot sign in, and it is erased 30 days later unless lifted. */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /** When a moderator limited the account: what it writes waits for approval, and its posts are listed nowhere. */
    limitedAt: timestamp("limited_at", { withTimezone: true }),
    /** The author holds comments from people who never commented on their posts until the author approves them. */
    holdFirstComments: boolean("hold_first_comments").notNull().default(false),
    isAccountVerified: boolean("is_account_verified").notNull().default(false),
    /** EIP-55 checksummed. */
    walletAddress: text("wallet_address"),
    walletVerifiedAt: timestamp("wallet_verified_at", { withTimezone: true }),
    /** Bumped on password change, reset and blocking: tokens carrying an older version stop working. */
    tokenVersion: integer("token_version").notNull().default(0),
    /** When the user asked to close the account: it is erased 14 days later unless they sign in before. */
    closingAt: timestamp("closing_at", { withTimezone: true }),
    /** Whether their published posts stay, under "A former member", once it is erased. */
    closingKeepsPosts: boolean("closing_keeps_posts").notNull().default(false),
    /** When it was erased: the row stays, empty of the person, for what others keep (comments, payments, posts). */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    index("users_closing_idx").on(t.closingAt).where(sql`${t.closingAt} is not null`),
    uniqueIndex("users_handle_key").on(t.handle),
    uniqueIndex("users_verified_wallet_key")
      .on(sql`lower(${t.walletAddress})`)
      .where(sql`${t.walletVerifiedAt} is not null`),
    index("users_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("users_suspended_idx").on(t.suspendedAt).where(sql`suspended_at IS NOT NULL`),
  ],
);

export const follows = pgTable(
  "follows",
  {
    followerId: userRef("follower_id").notNull(),
    followeeId: userRef("followee_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index("follows_followee_idx").on(t.followeeId, t.createdAt.desc().nullsFirst()),
    check("follows_not_self", sql`${t.followerId} <> ${t.followeeId}`),
  ],
);

/** A user blocks another: no follows, comments on their posts, messages or tips from them; their comments hidden. */
export const userBlocks = pgTable(
  "user_blocks",
  {
    blockerId: userRef("blocker_id").notNull(),
    blockedId: userRef("blocked_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index("user_blocks_blocked_idx").on(t.blockedId),
    check("user_blocks_not_self", sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/** A user mutes another: gone from their feed and notifications, and the muted person is never told. */
export const userMutes = pgTable(
  "user_mutes",
  {
    muterId: userRef("muter_id").notNull(),
    mutedId: userRef("muted_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.muterId, t.mutedId] }),
    check("user_mutes_not_self", sql`${t.muterId} <> ${t.mutedId}`),
  ],
);

/** Words a user never wants to see in their feed and notifications (matched in lower case, anywhere). */
export const mutedWords = pgTable(
  "muted_words",
  {
    userId: userRef("user_id").notNull(),
    word: text("word").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.word] })],
);

export const profileViews = pgTable(
  "profile_views",
  {
    profileId: userRef("profile_id").notNull(),
    viewerId: userRef("viewer_id").notNull(),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.profileId, t.viewerId] }),
    index("profile_views_recent_idx").on(t.profileId, t.viewedAt.desc().nullsFirst()),
  ],
);

export const categories = pgTable(
  "categories",
  {
    id: id(),
    title: text("title").notNull(),
    userId: userRef("user_id").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("categories_title_lower_key").on(sql`lower(${t.title})`),
    index("categories_created_at_idx").on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** Drafts and scheduled posts are their author's alone until published (docs/product.md, "Search, drafts and scheduled posts"). */
export const postStatus = pgEnum("post_status", ["draft", "scheduled", "published"]);
/**
 * Where an item stands with moderation: visible; held by the filter until a moderator approves it; hidden
 * (reversible) or removed by a moderator; limited (a limited author's post: reachable at its address, listed nowhere,
 * not federated). Anything but visible has left every list, feed, search and the fediverse.
 */
export const moderationState = pgEnum("moderation_state", ["visible", "held", "hidden", "removed", "limited"]);
const moderated = () => ({
  moderation: moderationState("moderation").notNull().default("visible"),
  /** Why it is not visible: the rule, and the moderator's note, as its author is shown them. */
  moderationReason: text("moderation_reason"),
});

// Everything public reads published posts only: the list indexes are partial, so a draft cannot slow a list either.
const published = sql`status = 'published'`;

export const posts = pgTable(
  "posts",
  {
    id: id(),
    title: text("title").notNull(),
    /** Sanitised HTML. */
    description: text("description").notNull(),
    categoryId: uuid("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "restrict" }),
    image: text("image"),
    isFeatured: boolean("is_featured").notNull().default(false),
    userId: userRef("user_id").notNull(),
    status: postStatus("status").notNull().default("published"),
    ...moderated(),
    /** When it was published, or (scheduled) will be; null for a draft. Lists order by it. */
    publishedAt: timestamp("published_at", { withTimezone: true }).defaultNow(),
    numViews: integer("num_views").notNull().default(0),
    /**
     * Kept by triggers on reactions and comments (migration 0004), in the transaction that changes them: exact
     * under any concurrency, and a page reads them instead of counting, however many reactions a post has.
     */
    likesCount: integer("likes_count").notNull().default(0),
    disLikesCount: integer("dis_likes_count").notNull().default(0),
    commentsCount: integer("comments_count").notNull().default(0),
    /** Title, body text, category and author's name, weighted; kept by triggers (migration 0005). */
    searchVector: tsvector("search_vector"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The list order is featured first, then newest first; each filter has an index in that order for keyset paging.
    index("posts_list_idx")
      .on(t.isFeatured.desc().nullsFirst(), t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(published),
    index("posts_category_list_idx")
      .on(t.categoryId, t.isFeatured.desc().nullsFirst(), t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(published),
    index("posts_author_list_idx")
      .on(t.userId, t.isFeatured.desc().nullsFirst(), t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(published),
    // An author's posts newest first: the Following feed reads a page from each followed author's end of it.
    index("posts_author_newest_idx")
      .on(t.userId, t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(published),
    // Feeds and the sitemap: newest (or oldest) first, whatever is featured.
    index("posts_published_idx").on(t.publishedAt.desc().nullsFirst(), t.id.desc().nullsFirst()).where(published),
    index("posts_search_idx").using("gin", t.searchVector).where(published),
    // The publisher's one question: which scheduled posts are due.
    index("posts_scheduled_idx").on(t.publishedAt).where(sql`status = 'scheduled'`),
    // An author's drafts and scheduled posts, last edited first.
    index("posts_unpublished_idx")
      .on(t.userId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`status <> 'published'`),
    check("posts_published_at", sql`${t.status} = 'draft' or ${t.publishedAt} is not null`),
  ],
);

/**
 * A published post's kept revisions (docs/provenance.md): each the JCS object of what was published and its SHA-256,
 * chained by the previous digest, signed by the site (a FEP-8b32 proof) and, when its author chose to, by their wallet
 * (EIP-712). Written in the transaction that publishes or edits the post.
 */
export const postRevisions = pgTable(
  "post_revisions",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    revision: integer("revision").notNull(),
    canonical: jsonb("canonical").notNull(),
    /** Hex SHA-256 of the canonical object's JCS bytes, no 0x. */
    digest: text("digest").notNull(),
    previous: text("previous"),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull(),
    /** The ActivityPub Article the site signed (compact JSON-LD, without its proof). */
    siteDocument: jsonb("site_document").notNull(),
    /** The FEP-8b32 proof (eddsa-jcs-2022) over `siteDocument`, by the site actor's Ed25519 key. */
    siteProof: jsonb("site_proof").notNull(),
    /** The same by the author's actor's Ed25519 key: fediverse servers want each attribution to have signed. */
    actorProof: jsonb("actor_proof").notNull(),
    authorSignature: text("author_signature"),
    /** EIP-55 checksummed. */
    authorSigner: text("author_signer"),
    authorSignedAt: timestamp("author_signed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.postId, t.revision] }),
    uniqueIndex("post_revisions_digest_key").on(t.digest),
    // A signature is taken once: the same bytes again are a replay.
    uniqueIndex("post_revisions_signature_key")
      .on(sql`lower(${t.authorSignature})`)
      .where(sql`${t.authorSignature} is not null`),
  ],
);

export const reactionKind = pgEnum("reaction_kind", ["like", "dislike"]);

export const reactions = pgTable(
  "reactions",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: userRef("user_id").notNull(),
    kind: reactionKind("kind").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] }), index("reactions_post_kind_idx").on(t.postId, t.kind)],
);

/** One row per viewer and post; `viewedAt` moves forward at most once an hour, which is when a view counts. */
export const postViews = pgTable(
  "post_views",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    /** `u:<user id>` or `a:<anonymous client id>`. */
    viewerKey: text("viewer_key").notNull(),
    viewedAt: timestamp("viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.viewerKey] })],
);

export const comments = pgTable(
  "comments",
  {
    id: id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    userId: userRef("user_id").notNull(),
    description: text("description").notNull(),
    /** A comment brought by an import: its original writer's name (the row belongs to the post's author). */
    importedAuthor: text("imported_author"),
    ...moderated(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("comments_post_list_idx").on(t.postId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // A person's comments: whether they commented on an author's posts before, a block's or a suspension's.
    index("comments_user_idx").on(t.userId, t.postId),
  ],
);

export const tokenPurpose = pgEnum("token_purpose", ["verify-email", "reset-password"]);

export const oneTimeTokens = pgTable(
  "one_time_tokens",
  {
    id: id(),
    userId: userRef("user_id").notNull(),
    purpose: tokenPurpose("purpose").notNull(),
    /** SHA-256 of the token; the token itself is only ever in the e-mail. */
    tokenHash: text("token_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("one_time_tokens_hash_key").on(t.tokenHash),
    index("one_time_tokens_user_idx").on(t.userId, t.purpose),
  ],
);

export const paymentPurpose = pgEnum("payment_purpose", ["featured", "tip"]);
/** Accepted at MIN_CONFIRMATIONS ("confirming"), re-checked until final; "reorged" when its block left the chain. */
export const paymentStatus = pgEnum("payment_status", ["confirming", "final", "reorged"]);

/** A verified on-chain payment. (chain, hash) is unique, so a transaction can be claimed once. */
export const payments = pgTable(
  "payments",
  {
    id: id(),
    chainId: integer("chain_id").notNull(),
    txHash: text("tx_hash").notNull(),
    purpose: paymentPurpose("purpose").notNull(),
    payer: text("payer").notNull(),
    recipient: text("recipient").notNull(),
    amountWei: numeric("amount_wei", { precision: 78, scale: 0 }).notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    confirmations: integer("confirmations").notNull(),
    /** The block the receipt was in when last checked; a different or missing block later means a reorg. */
    blockHash: text("block_hash"),
    status: paymentStatus("status").notNull().default("confirming"),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    userId: userRef("user_id").notNull(),
    postId: uuid("post_id").references(() => posts.id, { onDelete: "set null" }),
    /** A tip's user: whose verified wallet it paid. */
    recipientId: uuid("recipient_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("payments_recipient_idx").on(t.recipientId).where(sql`${t.recipientId} is not null`),
    uniqueIndex("payments_chain_tx_key").on(t.chainId, sql`lower(${t.txHash})`),
    index("payments_confirming_idx").on(t.checkedAt).where(sql`${t.status} = 'confirming'`),
    index("payments_post_idx").on(t.postId),
    index("payments_purpose_created_idx").on(t.purpose, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** An admin's reward to a user: one per admin and user; a tip links the verified payment. */
export const rewards = pgTable(
  "rewards",
  {
    userId: userRef("user_id").notNull(),
    adminId: userRef("admin_id").notNull(),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.adminId] })],
);

/** Sessions ended by logout before their token expires; rows can go once `expiresAt` has passed. */
export const revokedSessions = pgTable(
  "revoked_sessions",
  {
    sessionId: text("session_id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("revoked_sessions_expires_idx").on(t.expiresAt)],
);

/** Personal access tokens (docs/tokens.md): only the SHA-256 of the secret is kept. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: id(),
    userId: userRef("user_id").notNull(),
    name: text("name").notNull(),
    /** SHA-256 of the whole `pcn_…` secret, base64url. */
    tokenHash: text("token_hash").notNull(),
    scopes: text("scopes").array().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Written at most once a minute, not on every request. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_tokens_hash_key").on(t.tokenHash),
    index("api_tokens_user_idx").on(t.userId, t.createdAt.desc().nullsFirst()),
  ],
);

export const siweNonces = pgTable(
  "siwe_nonces",
  {
    nonce: text("nonce").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("siwe_nonces_expires_idx").on(t.expiresAt)],
);

/** Outgoing mail; a row stays until it is sent, so mail that cannot be delivered now is retried, not lost. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    /** Headers of the message besides the usual ones: a list's unsubscribe headers (RFC 2369, RFC 8058). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("mail_outbox_pending_idx").on(t.nextAttemptAt).where(sql`${t.sentAt} is null`),
    // Counts a recipient's recent messages from users (they carry a reply-to) for the per-recipient limit.
    index("mail_outbox_recipient_idx").on(sql`lower(${t.to})`, t.createdAt).where(sql`${t.replyTo} is not null`),
  ],
);

/** Site-wide settings an admin edits; a single row. */
export const siteSettings = pgTable(
  "site_settings",
  {
    id: integer("id").primaryKey().default(1),
    siteName: text("site_name").notNull().default(DEFAULT_SITE_SETTINGS.siteName),
    siteDescription: text("site_description").notNull().default(DEFAULT_SITE_SETTINGS.siteDescription),
    updatedAt: updatedAt(),
  },
  (t) => [check("site_settings_single_row", sql`${t.id} = 1`)],
);

export const notificationKind = pgEnum("notification_kind", NOTIFICATION_KINDS);

/**
 * What a user is told of, grouped the way people read it: one entry per kind, post and day ("Ana and 12 others
 * liked *Title*"), its people in `notification_actors`. A new event in a group already read makes it unread again.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: id(),
    userId: userRef("user_id").notNull(),
    kind: notificationKind("kind").notNull(),
    postId: uuid("post_id").references(() => posts.id, { onDelete: "cascade" }),
    paymentId: uuid("payment_id").references(() => payments.id, { onDelete: "set null" }),
    /** What groups events into this entry (the post and the UTC day, say): unique per user and kind. */
    groupKey: text("group_key").notNull(),
    /** The newest of its people, shown by name. */
    lastActorId: uuid("last_actor_id").references(() => users.id, { onDelete: "set null" }),
    readAt: timestamp("read_at", { withTimezone: true }),
    /** When its newest event happened: the list's order. */
    updatedAt: updatedAt(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("notifications_group_key").on(t.userId, t.kind, t.groupKey),
    index("notifications_list_idx").on(t.userId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("notifications_unread_idx").on(t.userId).where(sql`${t.readAt} is null`),
    index("notifications_post_idx").on(t.postId, t.kind),
  ],
);

export const notificationActors = pgTable(
  "notification_actors",
  {
    notificationId: uuid("notification_id")
      .notNull()
      .references(() => notifications.id, { onDelete: "cascade" }),
    actorId: userRef("actor_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.actorId] })],
);

export const notificationTopic = pgEnum("notification_topic", NOTIFICATION_TOPICS);
export const notificationDelivery = pgEnum("notification_delivery", DELIVERIES);

/** A user's choice per topic; a topic without a row has its default (TOPICS in src/shared). */
export const notificationSettings = pgTable(
  "notification_settings",
  {
    userId: userRef("user_id").notNull(),
    topic: notificationTopic("topic").notNull(),
    delivery: notificationDelivery("delivery").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.topic] })],
);

/** One row per user and (UTC) day a digest was sent: claiming the row is what sends it once, across instances. */
export const digests = pgTable(
  "digests",
  {
    userId: userRef("user_id").notNull(),
    day: date("day").notNull(),
    /** The notifications it covered were updated before this. */
    coveredUntil: timestamp("covered_until", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** A user's earlier handles: they keep resolving (WebFinger) for followers who knew them, and nobody else takes them. */
export const handleAliases = pgTable("handle_aliases", {
  handle: text("handle").primaryKey(),
  userId: userRef("user_id").notNull(),
  createdAt: createdAt(),
});

/**
 * Who follows a local actor from the fediverse. `actor` is a user's id, or `site` for the site's own actor;
 * `domain` is the follower's host, so an admin can drop a whole domain's followers at once.
 */
export const remoteFollowers = pgTable(
  "remote_followers",
  {
    actor: text("actor").notNull(),
    followerUri: text("follower_uri").notNull(),
    inbox: text("inbox").notNull(),
    sharedInbox: text("shared_inbox"),
    domain: text("domain").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.actor, t.followerUri] }), index("remote_followers_domain_idx").on(t.domain)],
);

/** A local actor's key pairs (JWK), made the first time the actor is asked for: RSA for HTTP Signatures, Ed25519 for proofs. */
export const federationKeys = pgTable(
  "federation_keys",
  {
    actor: text("actor").notNull(),
    algorithm: text("algorithm").notNull(),
    privateKey: jsonb("private_key").notNull(),
    publicKey: jsonb("public_key").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.actor, t.algorithm] })],
);

/** Fedify's key–value store (infra/federation-kv.ts): cached remote documents and keys, seen activity ids. */
export const federationKv = pgTable(
  "federation_kv",
  {
    key: text("key").array().primaryKey(),
    value: jsonb("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [index("federation_kv_expires_idx").on(t.expiresAt).where(sql`${t.expiresAt} is not null`)],
);

/**
 * Fedify's message queue (infra/federation-queue.ts): deliveries out and activities in. A row is leased to one
 * instance while it is handled and deleted when done, so a restart or a second instance loses none.
 */
export const federationQueue = pgTable(
  "federation_queue",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    message: jsonb("message").notNull(),
    /** Messages with one key are handled in the order they were queued (a post's Create before its Update). */
    orderingKey: text("ordering_key"),
    /** When it may next be handled: its delay, or the end of the lease of the instance handling it. */
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("federation_queue_due_idx").on(t.runAt, t.id),
    index("federation_queue_ordering_idx").on(t.orderingKey, t.id).where(sql`${t.orderingKey} is not null`),
  ],
);

export const remoteReplyStatus = pgEnum("remote_reply_status", ["pending", "approved"]);

/**
 * Replies to a post from the fediverse, shown with its comments. A remote account's first reply to an author waits
 * for the author's approval (`pending`); once approved, the account's replies to that author show at once.
 */
export const remoteReplies = pgTable(
  "remote_replies",
  {
    id: id(),
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    /** The reply's own id on its server; unique, so a delivery repeated is one reply. */
    uri: text("uri").notNull(),
    actorUri: text("actor_uri").notNull(),
    domain: text("domain").notNull(),
    authorName: text("author_name").notNull(),
    /** `@name@host`. */
    authorHandle: text("author_handle").notNull(),
    authorAvatar: text("author_avatar"),
    /** Where the reply is read on its server. */
    url: text("url"),
    /** Sanitised to paragraphs, line breaks and links. */
    content: text("content").notNull(),
    status: remoteReplyStatus("status").notNull(),
    ...moderated(),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("remote_replies_uri_key").on(t.uri),
    index("remote_replies_post_idx").on(t.postId, t.status, t.publishedAt),
    index("remote_replies_domain_idx").on(t.domain),
  ],
);

/** Remote accounts an author let reply without waiting (they approved one of its replies). */
export const approvedRepliers = pgTable(
  "approved_repliers",
  {
    userId: userRef("user_id").notNull(),
    actorUri: text("actor_uri").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.actorUri] })],
);

export const remoteReactionKind = pgEnum("remote_reaction_kind", ["like", "announce"]);

/** Likes and boosts of a post from the fediverse, counted apart from local likes. */
export const remoteReactions = pgTable(
  "remote_reactions",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => posts.id, { onDelete: "cascade" }),
    actorUri: text("actor_uri").notNull(),
    kind: remoteReactionKind("kind").notNull(),
    domain: text("domain").notNull(),
    /** The Like or Announce activity's id, which its Undo names. */
    activityUri: text("activity_uri"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.actorUri, t.kind] }), index("remote_reactions_domain_idx").on(t.domain)],
);

/** Domains an admin blocked: their activities are refused, their followers, replies and reactions dropped. */
export const blockedDomains = pgTable("blocked_domains", {
  domain: text("domain").primaryKey(),
  blockedBy: uuid("blocked_by").references(() => users.id, { onDelete: "set null" }),
  /** Mastodon's levels: `suspend` refuses the domain's activities; `silence` lets its replies in only for approval. */
  severity: text("severity").notNull().default("suspend"),
  /** Why, as a shared blocklist says it. */
  publicComment: text("public_comment").notNull().default(""),
  createdAt: createdAt(),
});

/** The site's rules, in the order readers see them; reports and actions keep the title they named. */
export const siteRules = pgTable("site_rules", {
  id: id(),
  position: integer("position").notNull(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const reportStatus = pgEnum("report_status", ["open", "dismissed", "actioned"]);

/**
 * A report of an item by a signed-in reader, or by another server (`remoteReporter`, never shown). One open report
 * per reporter and item.
 */
export const reports = pgTable(
  "reports",
  {
    id: id(),
    reporterId: uuid("reporter_id").references(() => users.id, { onDelete: "set null" }),
    remoteReporter: text("remote_reporter"),
    targetKind: text("target_kind").notNull(),
    targetId: uuid("target_id").notNull(),
    /** The local author of what was reported (the user themself, for a profile); null for a remote reply. */
    subjectId: uuid("subject_id").references(() => users.id, { onDelete: "cascade" }),
    ruleId: uuid("rule_id").references(() => siteRules.id, { onDelete: "set null" }),
    /** The rule's title when reported, or "Spam" / "Other". */
    reason: text("reason").notNull(),
    note: text("note").notNull().default(""),
    forward: boolean("forward").notNull().default(false),
    status: reportStatus("status").notNull().default("open"),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("reports_open_key")
      .on(t.reporterId, t.targetKind, t.targetId)
      .where(sql`status = 'open' and reporter_id is not null`),
    // The queue: open reports grouped per item, oldest first.
    index("reports_queue_idx").on(t.status, t.targetKind, t.targetId, t.createdAt),
    index("reports_reporter_idx").on(t.reporterId, t.createdAt.desc().nullsFirst()),
  ],
);

/**
 * The queue's index: each reported item with its open reports' count and when the oldest was made, kept by a trigger
 * on `reports` (migration 0010), so the queue's first page is an index scan however many reports there are.
 */
export const moderationItems = pgTable(
  "moderation_items",
  {
    targetKind: text("target_kind").notNull(),
    targetId: uuid("target_id").notNull(),
    openReports: integer("open_reports").notNull().default(0),
    firstOpenAt: timestamp("first_open_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.targetKind, t.targetId] }),
    index("moderation_items_queue_idx").on(t.firstOpenAt, t.targetKind, t.targetId).where(sql`open_reports > 0`),
  ],
);

/** What a moderator did, to what and whom, under which rule and why. */
export const moderationActions = pgTable(
  "moderation_actions",
  {
    id: id(),
    moderatorId: uuid("moderator_id").references(() => users.id, { onDelete: "set null" }),
    targetKind: text("target_kind").notNull(),
    targetId: uuid("target_id").notNull(),
    subjectId: uuid("subject_id").references(() => users.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    ruleId: uuid("rule_id").references(() => siteRules.id, { onDelete: "set null" }),
    rule: text("rule").notNull(),
    note: text("note").notNull().default(""),
    /** The person's one appeal, within 20 days, and how another moderator decided it (`upheld`, `reversed`). */
    appealText: text("appeal_text"),
    appealedAt: timestamp("appealed_at", { withTimezone: true }),
    appealOutcome: text("appeal_outcome"),
    appealDecidedBy: uuid("appeal_decided_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("moderation_actions_appeals_idx")
      .on(t.appealedAt)
      .where(sql`appeal_text is not null and appeal_outcome is null`),
    index("moderation_actions_subject_idx").on(t.subjectId, t.createdAt.desc().nullsFirst()),
  ],
);

/** The public, tamper-evident log (src/shared/moderation-log.ts): no personal data, each entry chained to the last. */
export const moderationLog = pgTable("moderation_log", {
  seq: bigint("seq", { mode: "number" }).primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull(),
  targetKind: text("target_kind").notNull(),
  action: text("action").notNull(),
  rule: text("rule").notNull(),
  prevHash: text("prev_hash").notNull(),
  hash: text("hash").notNull(),
});

/** Each day's last log entry, signed with the site's Ed25519 key. */
export const moderationLogHeads = pgTable("moderation_log_heads", {
  day: date("day").primaryKey(),
  seq: bigint("seq", { mode: "number" }).notNull(),
  hash: text("hash").notNull(),
  signature: text("signature").notNull(),
});

/** The site's own words for the filter of new text, besides the maintained list: each held for review or refused. */
export const filterTerms = pgTable("filter_terms", {
  term: text("term").primaryKey(),
  action: text("action").notNull(),
  createdAt: createdAt(),
});

const rollupColumns = {
  /** `post` or `profile`. */
  kind: text("kind").notNull(),
  /** The post, or for a profile the user. */
  targetId: uuid("target_id").notNull(),
  authorId: uuid("author_id").notNull(),
  /** The referrer's domain; '' for none or the site itself. */
  source: text("source").notNull(),
  utmSource: text("utm_source").notNull(),
  utmMedium: text("utm_medium").notNull(),
  utmCampaign: text("utm_campaign").notNull(),
  /** `desktop`, `phone` or `tablet`. */
  device: text("device").notNull(),
  views: integer("views").notNull().default(0),
  visitors: integer("visitors").notNull().default(0),
  authorVisitors: integer("author_visitors").notNull().default(0),
  siteVisitors: integer("site_visitors").notNull().default(0),
};

/**
 * Reads of published posts and profiles, added up per hour and per source, campaign and device (services/stats/).
 * Raw reads are never kept. `visitors` counts people new to the post (or profile) that day, `authorVisitors` new to
 * its author that day, `siteVisitors` new to the site that day: each person is one visitor a day in each scope.
 * Absent values are '' so the key needs no nulls.
 */
export const statsRollups = pgTable(
  "stats_rollups",
  { hour: timestamp("hour", { withTimezone: true }).notNull(), ...rollupColumns },
  (t) => [
    primaryKey({
      columns: [t.hour, t.kind, t.targetId, t.source, t.utmSource, t.utmMedium, t.utmCampaign, t.device],
    }),
    index("stats_rollups_author_idx").on(t.authorId, t.hour),
    index("stats_rollups_target_idx").on(t.targetId, t.hour),
  ],
);

/** The same sums per day (its UTC midnight), written with the hourly ones: what periods of days and months read. */
export const statsDaily = pgTable(
  "stats_daily",
  { day: timestamp("day", { withTimezone: true }).notNull(), ...rollupColumns },
  (t) => [
    primaryKey({
      columns: [t.day, t.kind, t.targetId, t.source, t.utmSource, t.utmMedium, t.utmCampaign, t.device],
    }),
    index("stats_daily_author_idx").on(t.authorId, t.day),
    index("stats_daily_target_idx").on(t.targetId, t.day),
  ],
);

/**
 * Who was counted today, to count each person once a day per scope (`site`, an author's id, or `post:`/`profile:`
 * and an id): a hash under a salt of the day that is never stored. Rows go once their day is over, so nothing links
 * a visitor across days. `lastSeen` gives the "reading now" count.
 */
export const statsVisitors = pgTable(
  "stats_visitors",
  {
    day: date("day").notNull(),
    scope: text("scope").notNull(),
    visitor: text("visitor").notNull(),
    lastSeen: timestamp("last_seen", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.scope, t.visitor] }),
    index("stats_visitors_recent_idx").on(t.scope, t.lastSeen),
  ],
);

/** Events whose rows do not stay to be counted later (an unfollow, an unsubscribe), counted per day as they happen. */
export const statsCounts = pgTable(
  "stats_counts",
  {
    day: date("day").notNull(),
    /** An author's id, or `site`. */
    scope: text("scope").notNull(),
    metric: text("metric").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.scope, t.metric, t.day] })],
);

export const subscriptionStatus = pgEnum("subscription_status", ["pending", "active", "unsubscribed"]);

/**
 * Readers who get an author's new posts by e-mail without an account: an address confirmed by its own mail (double
 * opt-in) before anything is sent to it. One row per author and address, whatever happens to it.
 */
export const emailSubscriptions = pgTable(
  "email_subscriptions",
  {
    id: id(),
    authorId: userRef("author_id").notNull(),
    /** Lower-cased, as users' addresses are compared. */
    email: text("email").notNull(),
    status: subscriptionStatus("status").notNull().default("pending"),
    /** `form` (someone typed it), or where an import found it. */
    source: text("source").notNull().default("form"),
    /** SHA-256 of the confirmation link's token; the token itself is only ever in the mail. */
    confirmTokenHash: text("confirm_token_hash"),
    confirmSentAt: timestamp("confirm_sent_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("email_subscriptions_author_email_key").on(t.authorId, t.email),
    uniqueIndex("email_subscriptions_token_key").on(t.confirmTokenHash),
    index("email_subscriptions_active_idx").on(t.authorId).where(sql`${t.status} = 'active'`),
  ],
);

/** The posts whose e-mail subscribers were sent them: published again, a post is not mailed twice. */
export const subscriberMailings = pgTable("subscriber_mailings", {
  postId: uuid("post_id")
    .primaryKey()
    .references(() => posts.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

export const exportStatus = pgEnum("export_status", ["queued", "running", "ready", "failed", "downloaded", "expired"]);

/**
 * "Download my data": prepared in the background (a row a restarted or other instance can take over), mailed as a
 * link that works once and expires.
 */
export const dataExports = pgTable(
  "data_exports",
  {
    id: id(),
    userId: userRef("user_id").notNull(),
    status: exportStatus("status").notNull().default("queued"),
    /** Until when the instance preparing it holds it; past it, another takes over. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** SHA-256 of the download link's token; the token itself is only ever in the mail. */
    tokenHash: text("token_hash"),
    bytes: bigint("bytes", { mode: "number" }),
    error: text("error"),
    createdAt: createdAt(),
    readyAt: timestamp("ready_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    downloadedAt: timestamp("downloaded_at", { withTimezone: true }),
  },
  (t) => [
    index("data_exports_user_idx").on(t.userId, t.createdAt),
    index("data_exports_pending_idx").on(t.status).where(sql`${t.status} in ('queued', 'running')`),
    uniqueIndex("data_exports_token_key").on(t.tokenHash),
  ],
);

export const importFormat = pgEnum("import_format", ["wxr", "ghost", "substack", "markdown"]);
export const importStatus = pgEnum("import_status", ["queued", "running", "done", "failed", "cancelled"]);

/** An archive brought in: the file waits under DATA_DIR while a job (on any instance, after any restart) reads it. */
export const imports = pgTable(
  "imports",
  {
    id: id(),
    userId: userRef("user_id").notNull(),
    format: importFormat("format").notNull(),
    fileName: text("file_name").notNull(),
    status: importStatus("status").notNull().default("queued"),
    /** What the importer chose: fetch images from the old site, the whole site, authors mapped to accounts. */
    options: jsonb("options")
      .$type<{ fetchImages: boolean; site: boolean; authors: Record<string, string> }>()
      .notNull(),
    total: integer("total").notNull().default(0),
    done: integer("done").notNull().default(0),
    /** Items refused, with their reason (the first 200). */
    errors: jsonb("errors").$type<{ item: string; reason: string }[]>().notNull().default([]),
    /** Every item of the archive counted once, by what became of it (brought as it was, made a draft and why, …). */
    report: jsonb("report").$type<{ reason: string; count: number }[]>().notNull().default([]),
    error: text("error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    index("imports_user_idx").on(t.userId, t.createdAt),
    index("imports_pending_idx").on(t.status).where(sql`${t.status} in ('queued', 'running')`),
  ],
);

/** What an import made, by the archive's own id for it: importing the same file again makes nothing twice. */
export const importedItems = pgTable(
  "imported_items",
  {
    userId: userRef("user_id").notNull(),
    /** The format and the archive's id (a WordPress guid, a Ghost id, a file name). */
    source: text("source").notNull(),
    postId: uuid("post_id").references(() => posts.id, { onDelete: "cascade" }),
    commentId: uuid("comment_id").references(() => comments.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.source] })],
);

/** An imported post's old address (`/2019/05/my-post`, `/p/my-post`), answered with a 301 to the post. */
export const postRedirects = pgTable("post_redirects", {
  path: text("path").primaryKey(),
  postId: uuid("post_id")
    .notNull()
    .references(() => posts.id, { onDelete: "cascade" }),
});

/** Where a user's (or, for an admin, the site's) events are sent, signed with its secret (services/webhooks/). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: id(),
    userId: userRef("user_id").notNull(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").array().notNull(),
    /**
     * An admin's endpoint made with the admin's power (a session, or a token with the `admin` scope): it receives
     * every author's events and the site's own, while its owner stays an admin. Otherwise the owner's events only.
     */
    siteWide: boolean("site_wide").notNull().default(false),
    /** The signing secret, sealed with a key from JWT_SECRET (services/webhooks/secrets.ts): the server signs with it. */
    secret: text("secret").notNull(),
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    /** Set on a 410 or after failing for days; deliveries stop until the owner resumes it. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    /** The first failure since the last success: failing for long enough disables it. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId)],
);

/** Something that happened, written in the transaction of the change; `ownerId` is whose event it is. */
export const webhookEvents = pgTable("webhook_events", {
  id: id(),
  type: text("type").notNull(),
  /** The author it concerns; null for the site's own (admins only). */
  ownerId: uuid("owner_id"),
  data: jsonb("data").notNull(),
  createdAt: createdAt(),
});

/** One event for one endpoint: its id is the `webhook-id` of every attempt, so a receiver can drop repeats. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: id(),
    eventId: uuid("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** pending (waiting or leased), delivered, failed (every attempt failed, or its endpoint was disabled). */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When it may next be attempted: its retry's time, or the end of the lease of the instance sending it. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastStatus: integer("last_status"),
    lastDurationMs: integer("last_duration_ms"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt.desc().nullsFirst()),
  ],
);

/**
 * A post's provenance as the archive it was imported from carried it (`posts/<name>/provenance.json` of a Penchain
 * archive): the earlier site's revisions, signatures and key, kept as they came and handed back in *Download my
 * data*, where `npm run verify-post` checks them. This site never vouches for them.
 */
export const importedProvenance = pgTable("imported_provenance", {
  postId: uuid("post_id")
    .primaryKey()
    .references(() => posts.id, { onDelete: "cascade" }),
  document: jsonb("document").notNull(),
  createdAt: createdAt(),
});
