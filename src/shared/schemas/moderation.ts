import { z } from "../zod.ts";

/** The site's rules: a short numbered list every report and every moderation action names one of. */
export const ruleSchema = z.object({
  id: z.string(),
  /** 1, 2, 3…: the order readers see them in. */
  number: z.int(),
  title: z.string(),
  description: z.string(),
});
export type Rule = z.infer<typeof ruleSchema>;
export const rulesSchema = z.object({ rules: z.array(ruleSchema) });

export const ruleInputSchema = z.object({
  /** An existing rule's id, to edit it in place; none for a new rule. */
  id: z.optional(z.uuid()),
  title: z
    .string({ error: "Title is required" })
    .check(z.trim(), z.minLength(1, "Title is required"), z.maxLength(80, "Title is at most 80 characters")),
  description: z._default(z.string().check(z.trim(), z.maxLength(300, "Description is at most 300 characters")), ""),
});
export const rulesInputSchema = z.object({
  rules: z.array(ruleInputSchema).check(z.minLength(1, "Keep at least one rule"), z.maxLength(20, "At most 20 rules")),
});
export type RulesInput = z.infer<typeof rulesInputSchema>;

/** What can be reported, and acted on. */
export const REPORT_KINDS = ["post", "comment", "user", "remote-reply"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Why: a rule of the site's, or spam, or something else (said in the note). */
export const reasonSchema = z.union([z.uuid("Choose a rule"), z.literal("spam"), z.literal("other")], {
  error: "Choose a rule",
});

export const reportInputSchema = z.object({
  kind: z.enum(REPORT_KINDS, { error: "Choose what to report" }),
  id: z.uuid("Invalid id"),
  rule: reasonSchema,
  note: z._default(z.string().check(z.trim(), z.maxLength(1000, "A note is at most 1000 characters")), ""),
  /** A remote reply's report may also go to its own server, from the site (never naming the reporter). */
  forward: z._default(z.boolean(), false),
});
export type ReportInput = z.input<typeof reportInputSchema>;

export const REPORT_STATUSES = ["open", "dismissed", "actioned"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const reportSchema = z.object({
  id: z.string(),
  kind: z.enum(REPORT_KINDS),
  targetId: z.string(),
  /** The rule's title, "Spam" or "Other". */
  reason: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: z.string(),
  resolvedAt: z.nullable(z.string()),
});
export type Report = z.infer<typeof reportSchema>;

/**
 * What a moderator can do about an item: dismiss its reports; hide it (reversible) or remove it, so it leaves every
 * public place; restore what was hidden or removed (or lift a suspension or a limit); warn its author; limit its
 * author (what they write waits for approval, their posts are listed nowhere); suspend its author.
 */
export const MODERATION_ACTIONS = ["dismiss", "hide", "remove", "restore", "warn", "limit", "suspend"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const actionInputSchema = z.object({
  /** The reports it answers; none: every open report of the item. */
  reportIds: z.optional(z.array(z.uuid()).check(z.maxLength(100))),
  target: z.object({ kind: z.enum(REPORT_KINDS), id: z.uuid("Invalid id") }),
  action: z.enum(MODERATION_ACTIONS, { error: "Choose an action" }),
  rule: reasonSchema,
  note: z._default(z.string().check(z.trim(), z.maxLength(1000, "A note is at most 1000 characters")), ""),
});
export type ActionInput = z.input<typeof actionInputSchema>;

export const actionResultSchema = z.object({
  action: z.enum(MODERATION_ACTIONS),
  /** How many open reports it closed. */
  reportsResolved: z.int(),
  /** The public log's entry for it. */
  logSeq: z.int(),
});

/** One item in the queue: what it is, in context, and what its reports say. */
export const queueItemSchema = z.object({
  target: z.object({ kind: z.enum(REPORT_KINDS), id: z.string() }),
  state: z.enum(["visible", "held", "hidden", "removed", "limited"]),
  preview: z.object({ title: z.string(), text: z.string(), author: z.string(), path: z.string() }),
  reportsCount: z.int(),
  /** What the reports say, most named first; `rule` is the site's rule they name, if any. */
  reasons: z.array(z.object({ reason: z.string(), rule: z.nullable(z.string()), count: z.int() })),
  /** The reporters' notes (never their names). */
  notes: z.array(z.string()),
  firstReportedAt: z.string(),
  reportIds: z.array(z.string()),
  /** What moderators did about this author before, newest first. */
  history: z.array(z.object({ action: z.string(), rule: z.string(), at: z.string() })),
});
export type QueueItem = z.infer<typeof queueItemSchema>;

/** Where a report came from: a reader here (or the filter), or another server's `Flag`. */
export const REPORT_ORIGINS = ["local", "remote"] as const;
export type ReportOrigin = (typeof REPORT_ORIGINS)[number];

export const queueQuerySchema = z.object({
  status: z._default(z.enum(REPORT_STATUSES), "open"),
  kind: z.optional(z.enum(REPORT_KINDS)),
  /** Only items reported under this rule (or spam, or other). */
  rule: z.optional(reasonSchema),
  origin: z.optional(z.enum(REPORT_ORIGINS, { error: "Choose local or remote" })),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(50)), 20),
  cursor: z.optional(z.string().check(z.maxLength(200))),
});

export const FILTER_ACTIONS = ["hold", "refuse"] as const;
export const filterTermsSchema = z.object({
  terms: z.array(z.object({ term: z.string(), action: z.enum(FILTER_ACTIONS) })),
});
export const filterTermsInputSchema = z.object({
  terms: z
    .array(
      z.object({
        term: z
          .string()
          .check(
            z.trim(),
            z.toLowerCase(),
            z.minLength(2, "A term is at least 2 characters"),
            z.maxLength(60, "A term is at most 60 characters"),
            z.regex(/^[\p{L}\p{N}' -]+$/u, "A term is letters, digits, spaces, hyphens and apostrophes"),
          ),
        action: z.enum(FILTER_ACTIONS, { error: "Hold for review, or refuse" }),
      }),
    )
    .check(z.maxLength(500, "At most 500 terms")),
});
export type FilterTermsInput = z.infer<typeof filterTermsInputSchema>;

/** How long after a decision its person may appeal it, once. */
export const APPEAL_DAYS = 20;

/** A decision about the signed-in user, as they see it: what, why, and where their appeal stands. */
export const decisionSchema = z.object({
  id: z.string(),
  action: z.enum(MODERATION_ACTIONS),
  targetKind: z.enum(REPORT_KINDS),
  rule: z.string(),
  note: z.string(),
  createdAt: z.string(),
  appeal: z.object({
    status: z.enum(["none", "waiting", "upheld", "reversed"]),
    text: z.nullable(z.string()),
    /** Whether they may still appeal: once, within APPEAL_DAYS days. */
    open: z.boolean(),
  }),
});
export type Decision = z.infer<typeof decisionSchema>;
export const decisionsSchema = z.object({ decisions: z.array(decisionSchema) });

export const appealInputSchema = z.object({
  actionId: z.uuid("Invalid decision"),
  text: z
    .string({ error: "Say why the decision is wrong" })
    .check(
      z.trim(),
      z.minLength(10, "Say why the decision is wrong, in a sentence or more"),
      z.maxLength(2000, "An appeal is at most 2000 characters"),
    ),
});

/** An appeal from the link in a suspension's mail, which works without signing in. */
export const appealLinkSchema = z.object({
  actionId: z.uuid("This appeal link is not valid"),
  token: z.string().check(z.regex(/^[0-9a-f]{32}$/, "This appeal link is not valid")),
});
export const appealByLinkSchema = z.extend(appealInputSchema, { token: appealLinkSchema.shape.token });

/** An appeal waiting for a moderator, with the decision it is about. */
export const appealSchema = z.extend(decisionSchema, {
  targetId: z.string(),
  preview: z.nullable(z.object({ title: z.string(), text: z.string(), author: z.string(), path: z.string() })),
});
export const appealsSchema = z.object({ appeals: z.array(appealSchema) });
export const appealDecisionSchema = z.object({
  outcome: z.enum(["upheld", "reversed"], { error: "Uphold or reverse" }),
});

/** What an imported block list did: how many domains it blocked, and which lines it skipped and why. */
export const blocklistResultSchema = z.object({
  imported: z.int(),
  skipped: z.array(z.object({ line: z.int(), reason: z.string() })),
});

export const logEntrySchema = z.object({
  seq: z.int(),
  at: z.string(),
  targetKind: z.string(),
  action: z.string(),
  rule: z.string(),
  prevHash: z.string(),
  hash: z.string(),
});
export const logExportSchema = z.object({
  entries: z.array(logEntrySchema),
  heads: z.array(z.object({ day: z.string(), seq: z.int(), hash: z.string(), signature: z.string() })),
  publicKey: z.object({ kty: z.string(), crv: z.string(), x: z.string() }),
  /** Signed at the export: what the newest entry is. Missing only in exports made before it was added. */
  latest: z.optional(z.object({ at: z.string(), seq: z.int(), hash: z.string(), signature: z.string() })),
});
export type LogExport = z.infer<typeof logExportSchema>;
