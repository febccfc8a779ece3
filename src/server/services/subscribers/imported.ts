import { and, eq, gt, ne } from "drizzle-orm";
import { IMPORTED_SUBSCRIBERS_PER_DAY, IMPORTED_SUBSCRIBERS_PER_IMPORT } from "#shared/constants.ts";
import { emailSchema } from "#shared/schemas/users.ts";
import { emailSubscriptions, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { Deps } from "../core/deps.ts";
import { isNewAccount } from "../core/new-accounts.ts";
import { subscriberLimitKey } from "./address-key.ts";
import { importedConfirmationMail } from "./mails.ts";
import { confirmationPath, confirmationToken } from "./subscriptions.ts";

/**
 * Counts one confirmation asked of an address, under the form's own limit (`subscriptionAddress`); over it, it
 * throws a 429 HttpError. The job is handed the app's limiter; without one (the operator's script) only the caps hold.
 */
export type AskAddress = (key: string) => Promise<void>;

type ImportDeps = Pick<Deps, "db" | "config" | "mailer"> & { askAddress?: AskAddress };

export type ImportedOutcome = "waiting" | "kept" | "notAllowed" | "overCap" | "rateLimited";

const DAY_MS = 24 * 60 * 60_000;
const FROM: Record<string, string> = { substack: "Substack", ghost: "Ghost", wxr: "WordPress" };

/**
 * Who may bring a list of strangers' addresses at all: an admin, or an account past the new-account rules
 * (verified, a day old: `isNewAccount`) that is neither limited, suspended, blocked nor closing.
 */
async function mayBringList(deps: Pick<Deps, "db">, ownerId: string) {
  const [owner] = await deps.db.select().from(users).where(eq(users.id, ownerId));
  if (!owner || owner.isBlocked || owner.suspendedAt || owner.limitedAt || owner.closedAt) return false;
  return owner.isAdmin || (owner.isAccountVerified && !isNewAccount(owner));
}

/** Addresses imports added to an author in the last day (the form's own are not counted). */
async function importedToday(deps: Pick<Deps, "db">, authorId: string) {
  return deps.db.$count(
    emailSubscriptions,
    and(
      eq(emailSubscriptions.authorId, authorId),
      ne(emailSubscriptions.source, "form"),
      gt(emailSubscriptions.createdAt, new Date(Date.now() - DAY_MS)),
    ),
  );
}

const REASONS: Record<ImportedOutcome, (count: number) => string> = {
  waiting: (n) =>
    `${n} ${n === 1 ? "address was" : "addresses were"} sent one confirmation each and wait for it: nothing else is mailed to them until they confirm`,
  kept: (n) => `${n} already on the list (subscribed, waiting or unsubscribed) left as they were, and not mailed`,
  notAllowed: (n) => `${n} not added: only admins and verified accounts older than a day bring a list of subscribers`,
  overCap: (n) =>
    `${n} not added: an import asks at most ${IMPORTED_SUBSCRIBERS_PER_IMPORT} addresses, and ${IMPORTED_SUBSCRIBERS_PER_DAY} a day; import the same file again tomorrow for the rest`,
  rateLimited: (n) => `${n} not added: they were asked to confirm a subscription too often lately`,
};

/**
 * The subscriber part of one import. An imported address is never subscribed on the old site's word: it starts
 * waiting, is sent one confirmation saying who asks and why, and gets nothing else until it is opened.
 */
export function subscriberImport(deps: ImportDeps, ownerId: string, format: string) {
  const counts: Record<ImportedOutcome, number> = { waiting: 0, kept: 0, notAllowed: 0, overCap: 0, rateLimited: 0 };
  let allowed: Promise<boolean> | undefined;
  let asked = 0;
  const leftToday = new Map<string, Promise<{ left: number }>>();

  async function add(author: { id: string; name: string }, address: string): Promise<ImportedOutcome> {
    const parsed = emailSchema("it is not an e-mail address").safeParse(address.trim());
    if (!parsed.success) throw new Error("it is not an e-mail address");
    const email = parsed.data;
    allowed ??= mayBringList(deps, ownerId);
    if (!(await allowed)) return "notAllowed";
    const [there] = await deps.db
      .select({ id: emailSubscriptions.id })
      .from(emailSubscriptions)
      .where(and(eq(emailSubscriptions.authorId, author.id), eq(emailSubscriptions.email, email)));
    if (there) return "kept";
    let today = leftToday.get(author.id);
    if (!today) {
      today = importedToday(deps, author.id).then((count) => ({ left: IMPORTED_SUBSCRIBERS_PER_DAY - count }));
      leftToday.set(author.id, today);
    }
    const day = await today;
    // Taken before anything is awaited again: two items written at once cannot both take the last place.
    if (asked >= IMPORTED_SUBSCRIBERS_PER_IMPORT || day.left <= 0) return "overCap";
    asked++;
    day.left--;
    const giveBack = () => {
      asked--;
      day.left++;
    };
    try {
      await deps.askAddress?.(subscriberLimitKey(email));
    } catch (error) {
      giveBack();
      if (error instanceof HttpError && error.statusCode === 429) return "rateLimited";
      throw error;
    }
    const { token, tokenHash } = confirmationToken();
    const mail = importedConfirmationMail(
      author.name,
      FROM[format] ?? "another site",
      deps.config.publicUrl,
      `${deps.config.publicUrl}${confirmationPath(token)}`,
    );
    // The row and its one mail together; into the outbox, which the job drains a few at a time.
    const added = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(emailSubscriptions)
        .values({ authorId: author.id, email, source: format, confirmTokenHash: tokenHash, confirmSentAt: new Date() })
        .onConflictDoNothing()
        .returning({ id: emailSubscriptions.id });
      if (row) await deps.mailer.enqueue({ to: email, ...mail }, tx, false);
      return Boolean(row);
    });
    if (!added) giveBack();
    return added ? "waiting" : "kept";
  }

  return {
    /** One address from the list, for `author`: what became of it. */
    async add(author: { id: string; name: string }, address: string) {
      const outcome = await add(author, address);
      counts[outcome]++;
      return outcome;
    },
    /** The import's report: one line for each thing that became of some of the list. */
    report: () =>
      (Object.keys(REASONS) as ImportedOutcome[])
        .filter((outcome) => counts[outcome] > 0)
        .map((outcome) => ({ item: "Subscribers", reason: REASONS[outcome](counts[outcome]) })),
  };
}
export type SubscriberImport = ReturnType<typeof subscriberImport>;
