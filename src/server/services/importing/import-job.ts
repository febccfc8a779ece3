import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { ImportFormat, ImportRequest, ImportState } from "#shared/schemas/imports.ts";
import { imports, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { wakeable } from "../../infra/periodic.ts";
import { setPoolPriority } from "../../infra/thread-priority.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { cacheTags, EVERYTHING, NOTHING_PUBLIC } from "../core/tags.ts";
import { type AskAddress, subscriberImport } from "../subscribers/imported.ts";
import { type ArchiveFile, HostileArchive, openArchive } from "./archive-file.ts";
import { importCategories } from "./categories.ts";
import { imageBringer } from "./images.ts";
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

const openers = () => import("./formats/index.ts").then((module) => module.OPENERS);

export const uploadFile = (config: Deps["config"], id: string) =>
  path.resolve(config.dataDir, "imports", `${id}.upload`);
/** Where uploads are written as they arrive, before they are checked. */
export const uploadDir = (config: Deps["config"]) => path.resolve(config.dataDir, "imports");

const shown = (row: typeof imports.$inferSelect): ImportState => ({
  id: row.id,
  format: row.format,
  fileName: row.fileName,
  status: row.status,
  total: row.total,
  done: row.done,
  errors: row.errors,
  report: row.report,
  error: row.error,
  createdAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

/** Reads the whole archive once, checking it: what is hostile or unreadable is refused before anything is written. */
async function scanArchive(file: string, format: ImportFormat) {
  let archive: ArchiveFile | undefined;
  try {
    archive = await openArchive(file);
    const reader = (await openers())[format](archive);
    const found = await reader.scan();
    return { archive, reader, ...found };
  } catch (error) {
    archive?.close();
    throw error;
  }
}

/**
 * An archive uploaded (already on disk): checked whole, then queued for the job. One import at a time per person;
 * the whole site's import (authors mapped to accounts) is for admins.
 */
export async function startImport(
  deps: Pick<Deps, "db" | "config" | "changed">,
  user: AuthUser,
  input: ImportRequest,
): Promise<ImportState> {
  deps.changed(NOTHING_PUBLIC);
  const upload = input.file.path;
  try {
    if (input.site && !user.isAdmin) throw new HttpError(403, "Only admins import the whole site");
    const running = await deps.db.$count(
      imports,
      and(eq(imports.userId, user.id), inArray(imports.status, ["queued", "running"])),
    );
    if (running > 0) throw new HttpError(409, "An import of yours is already under way: wait for it, or cancel it.");
    const scanned = await scanArchive(upload, input.format).catch((error) => {
      if (error instanceof HostileArchive) throw new HttpError(422, `This archive was refused: ${error.message}`);
      throw error;
    });
    scanned.archive.close();
    if (scanned.total === 0)
      throw new HttpError(422, "This archive holds nothing to import: is it the right file for the format chosen?");
    const [row] = await deps.db
      .insert(imports)
      .values({
        userId: user.id,
        format: input.format,
        fileName: input.file.name.replace(/[^\p{L}\p{N} ._()-]/gu, "_").slice(0, 200) || "archive",
        total: scanned.total,
        options: { fetchImages: input.fetchImages, site: input.site, authors: input.site ? input.authors : {} },
      })
      .returning();
    if (!row) throw new Error("the import was not queued");
    fs.renameSync(upload, uploadFile(deps.config, row.id));
    return shown(row);
  } finally {
    fs.rmSync(upload, { force: true });
  }
}

/** The user's own import; staff may stop anyone's. */
async function ownImport(deps: Pick<Deps, "db">, user: AuthUser, id: string, staff = false) {
  const anyone = staff && (user.isAdmin || user.isModerator);
  const [row] = await deps.db
    .select()
    .from(imports)
    .where(and(eq(imports.id, id), anyone ? undefined : eq(imports.userId, user.id)));
  if (!row) throw new HttpError(404, "No such import");
  return row;
}

export const importState = async (deps: Pick<Deps, "db">, user: AuthUser, id: string) =>
  shown(await ownImport(deps, user, id));

/** The user's latest, for the Import screen after a reload. */
export async function latestImport(deps: Pick<Deps, "db">, user: AuthUser): Promise<ImportState | null> {
  const [row] = await deps.db
    .select()
    .from(imports)
    .where(eq(imports.userId, user.id))
    .orderBy(desc(imports.createdAt))
    .limit(1);
  return row ? shown(row) : null;
}

/**
 * Cancel: the job stops at its next item; what was imported stays (importing the file again finishes it). Admins
 * and moderators cancel anyone's.
 */
export async function cancelImport(deps: Pick<Deps, "db" | "changed">, user: AuthUser, id: string) {
  deps.changed(NOTHING_PUBLIC);
  const own = await ownImport(deps, user, id, true);
  const [row] = await deps.db
    .update(imports)
    .set({ status: "cancelled", finishedAt: new Date(), leaseUntil: null })
    .where(and(eq(imports.id, id), inArray(imports.status, ["queued", "running"])))
    .returning();
  return row ? shown(row) : shown(own);
}

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
