import fs from "node:fs";
import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import { imports, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { wakeable } from "../../infra/periodic.ts";
import { setPoolPriority } from "../../infra/thread-priority.ts";
import type { Deps } from "../core/deps.ts";
import { cacheTags, EVERYTHING } from "../core/tags.ts";
import { type AskAddress, subscriberImport } from "../subscribers/imported.ts";
import type { ArchiveFile } from "./archive-file.ts";
import { importCategories } from "./categories.ts";
import { imageBringer } from "./images.ts";
import { scanArchive, uploadFile } from "./import-requests.ts";
import type { ImportedItem } from "./items.ts";
import { OUTCOMES, tally } from "./report.ts";
import { type ImportTarget, type ItemResult, writePost, writeSubscriber } from "./write.ts";

/** An instance reading an archive holds it this long after its last progress; if it stops, another takes over. */
const LEASE_MS = 60_000;
/** Progress is written (and a cancel noticed) at least this often. */
const PROGRESS_MS = 500;
/** The nice value of the thread pool while an import runs (0 is normal, 19 the lowest). */
const BACKGROUND_NICE = 15;
/** Public lists are told of the posts an import added at most this often. */
const TELL_EVERY_MS = 10_000;
/** Items written at once (each image is encoded on a thread of its own). */
const IN_FLIGHT = 2;
/** The first errors are kept, with their reasons; the rest only counted. */
const MAX_ERRORS = 200;

type ImportDeps = Pick<Deps, "db" | "config" | "storage" | "mailer" | "bus" | "log" | "changed"> & {
  askAddress?: AskAddress;
};

/** Why an account's import may go no further: it was suspended, blocked or is leaving. */
async function stoppedFor(deps: Pick<Deps, "db">, userId: string) {
  const [owner] = await deps.db
    .select({
      blocked: users.isBlocked,
      suspendedAt: users.suspendedAt,
      closingAt: users.closingAt,
      closedAt: users.closedAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!owner || owner.closedAt || owner.closingAt) return "Stopped: the account is closing.";
  if (owner.suspendedAt || owner.blocked) return "Stopped: the account was suspended.";
  return null;
}

/** Accounts an import writes for, found once each: the owner, or (whole site) the account an old author maps to. */
function authorsOf(
  deps: Pick<Deps, "db">,
  owner: { id: string; name: string; limitedAt: Date | null },
  options: typeof imports.$inferSelect.options,
) {
  const found = new Map<string, Promise<typeof owner>>();
  return (name: string | null) => {
    const email = options.site && name ? options.authors[name] : undefined;
    if (!email) return Promise.resolve(owner);
    let author = found.get(email);
    if (!author) {
      author = deps.db
        .select({
          id: users.id,
          name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
          limitedAt: users.limitedAt,
        })
        .from(users)
        .where(and(eq(users.email, email), sql`${users.closedAt} is null`))
        .then(([row]) => row ?? owner);
      found.set(email, author);
    }
    return author;
  };
}

/** An item's name in the report, as JSON PostgreSQL keeps: no NUL or other control character, no half of a pair. */
const itemName = (item: ImportedItem) =>
  (item.kind === "post" ? item.title || item.source : item.kind === "subscriber" ? item.email : "")
    .slice(0, 200)
    .toWellFormed()
    .replace(/\p{Cc}/gu, "\uFFFD");

/**
 * Takes the oldest import waiting (or one whose instance stopped reading it) and reads it through: every item
 * written in its own transaction, progress written as it goes. Stopped half-way, it starts again from the top and
 * what was written already is found and skipped. Answers whether there was one.
 */
export async function runNextImport(deps: ImportDeps, stopping: () => boolean = () => false) {
  const now = new Date();
  const waiting = deps.db
    .select({ id: imports.id })
    .from(imports)
    .where(or(eq(imports.status, "queued"), and(eq(imports.status, "running"), lt(imports.leaseUntil, now))))
    .orderBy(imports.createdAt)
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await deps.db
    .update(imports)
    .set({ status: "running", leaseUntil: new Date(now.getTime() + LEASE_MS), done: 0, errors: [], report: [] })
    .where(inArray(imports.id, waiting))
    .returning();
  if (!row) return false;
  const file = uploadFile(deps.config, row.id);
  const finish = async (values: Partial<typeof imports.$inferInsert>) => {
    await deps.db
      .update(imports)
      .set({ ...values, finishedAt: new Date(), leaseUntil: null })
      .where(and(eq(imports.id, row.id), eq(imports.status, "running")));
    fs.rmSync(file, { force: true });
    deps.changed(EVERYTHING);
  };
  let archive: ArchiveFile | undefined;
  // The images' encoding yields the cores to requests while the import runs.
  setPoolPriority(BACKGROUND_NICE);
  try {
    const [owner] = await deps.db
      .select({
        id: users.id,
        name: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
        limitedAt: users.limitedAt,
        isAdmin: users.isAdmin,
      })
      .from(users)
      .where(eq(users.id, row.userId));
    if (!owner) return true;
    const scanned = await scanArchive(file, row.format);
    archive = scanned.archive;
    const target: ImportTarget = {
      ownerId: row.userId,
      format: row.format,
      authorFor: authorsOf(deps, owner, row.options),
      bringImage: imageBringer(deps, archive, row.options.fetchImages),
      categoryFor: importCategories(deps, owner),
      subscribers: subscriberImport(deps, row.userId, row.format),
    };
    const errors: { item: string; reason: string }[] = [];
    const report = tally();
    let done = 0;
    let lastWrite = Date.now();
    let created = 0;
    let lastTold = Date.now();
    const progress = async () => {
      lastWrite = Date.now();
      const [still] = await deps.db
        .update(imports)
        .set({
          done,
          errors,
          report: report.lines(),
          total: Math.max(scanned.total, done),
          leaseUntil: new Date(Date.now() + LEASE_MS),
        })
        .where(and(eq(imports.id, row.id), eq(imports.status, "running")))
        .returning({ id: imports.id });
      // Subscribers' mails queued meanwhile go out a few at a time.
      deps.mailer.drain();
      // Old posts are no news: public lists learn of them every few seconds, not at each item (each telling
      // re-renders every page readers are reading).
      if (created > 0 && Date.now() - lastTold > TELL_EVERY_MS) {
        deps.changed([cacheTags.posts, cacheTags.categories]);
        created = 0;
        lastTold = Date.now();
      }
      return Boolean(still);
    };
    const write = async (item: ImportedItem) => {
      if (item.kind === "skipped") return;
      let result: ItemResult | null = null;
      try {
        result = item.kind === "post" ? await writePost(deps, target, item) : await writeSubscriber(target, item);
      } catch (error) {
        if (errors.length < MAX_ERRORS) errors.push({ item: itemName(item), reason: reasonOf(error) });
      }
      if (result?.created) created++;
      const draft = result?.created && (result.draft ?? (item.kind === "post" ? item.draftReason : undefined));
      const notes = result?.created && item.kind === "post" ? (item.notes ?? []) : [];
      for (const warning of [...(draft ? [OUTCOMES.draft(draft)] : []), ...notes, ...(result?.warnings ?? [])])
        if (errors.length < MAX_ERRORS) errors.push({ item: itemName(item), reason: warning });
      report.count(item, result);
      done++;
    };
    // A few items at once: one's images are encoded while another's rows are written.
    const writing = new Set<Promise<void>>();
    const stop = async (reason: string) => {
      await Promise.all(writing);
      await finish({ status: "cancelled", done, errors, error: reason });
      return true;
    };
    for await (const item of scanned.reader.items()) {
      // The owner is read again before each item: a suspension stops what is left at once.
      const stopped = await stoppedFor(deps, row.userId);
      if (stopped) return await stop(stopped);
      // Not imported: only counted.
      if (item.kind === "skipped") {
        report.count(item, null);
        continue;
      }
      const work: Promise<void> = write(item).finally(() => writing.delete(work));
      writing.add(work);
      if (writing.size < IN_FLIGHT) continue;
      await Promise.race(writing);
      if (stopping()) {
        await Promise.all(writing);
        // The instance is stopping: the next one to look takes it over at once, skipping what was written.
        await deps.db
          .update(imports)
          .set({ leaseUntil: new Date(0) })
          .where(eq(imports.id, row.id));
        return false;
      }
      if (Date.now() - lastWrite > PROGRESS_MS && !(await progress())) {
        await Promise.all(writing);
        fs.rmSync(file, { force: true });
        deps.changed(EVERYTHING);
        return true;
      }
    }
    await Promise.all(writing);
    errors.push(...target.subscribers.report());
    if (!(await progress())) return true;
    await finish({ status: "done", done, errors, report: report.lines() });
  } catch (error) {
    deps.log.error({ err: error, importId: row.id }, "an import failed");
    await finish({ status: "failed", error: reasonOf(error).slice(0, 500) });
  } finally {
    archive?.close();
    setPoolPriority(0);
  }
  return true;
}

const reasonOf = (error: unknown) => {
  const message = (error as Error)?.message ?? String(error);
  return error instanceof HttpError && error.issues?.length
    ? error.issues.map((issue) => issue.message).join("; ")
    : message.slice(0, 300);
};

/** The job: reads waiting imports one at a time on each instance (woken by an upload, and every few seconds). */
export function createImportJob(deps: ImportDeps, { everyMs = 5000 } = {}) {
  return wakeable(
    async (stopping) => {
      while (!stopping() && (await runNextImport(deps, stopping)));
    },
    { everyMs, onError: (error) => deps.log.error({ err: error }, "imports failed") },
  );
}
export type ImportJob = ReturnType<typeof createImportJob>;
