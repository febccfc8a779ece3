import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { DataExport } from "#shared/schemas/leaving.ts";
import { dataExports, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { wakeable } from "../../infra/periodic.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { writeArchive } from "./archive.ts";
import { exportFailedMail, exportReadyMail } from "./mails.ts";

const DAY_MS = 24 * 60 * 60_000;
/** How long the mailed link works (once). */
const LINK_TTL_MS = 7 * DAY_MS;
/** An instance preparing an archive holds it this long; if it dies, another takes over after. */
const LEASE_MS = 10 * 60_000;
/** At most this many archives asked for per user and day. */
const PER_DAY = 3;

type ExportDeps = Pick<Deps, "db" | "config" | "storage" | "mailer" | "log">;

const hash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");
export const archiveFile = (config: Deps["config"], id: string) => path.resolve(config.dataDir, "exports", `${id}.zip`);

const shown = (row: typeof dataExports.$inferSelect): DataExport => ({
  id: row.id,
  status: row.status,
  createdAt: row.createdAt.toISOString(),
  readyAt: row.readyAt?.toISOString() ?? null,
  expiresAt: row.expiresAt?.toISOString() ?? null,
});

/**
 * "Download my data": an archive is prepared in the background and its link mailed. One at a time: asking while
 * one is on its way answers that one.
 */
export async function requestExport(deps: Pick<Deps, "db" | "changed">, user: AuthUser): Promise<DataExport> {
  deps.changed(NOTHING_PUBLIC);
  const [pending] = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, user.id), inArray(dataExports.status, ["queued", "running"])));
  if (pending) return shown(pending);
  const today = await deps.db.$count(
    dataExports,
    and(eq(dataExports.userId, user.id), sql`${dataExports.createdAt} > now() - interval '1 day'`),
  );
  if (today >= PER_DAY) throw new HttpError(429, `At most ${PER_DAY} archives a day: use the link we mailed you.`);
  const [row] = await deps.db.insert(dataExports).values({ userId: user.id }).returning();
  if (!row) throw new Error("the export was not queued");
  return shown(row);
}

/** Where one stands (its owner only). */
export async function exportState(deps: Pick<Deps, "db">, user: AuthUser, id: string): Promise<DataExport> {
  const [row] = await deps.db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, id), eq(dataExports.userId, user.id)));
  if (!row) throw new HttpError(404, "No such export");
  return shown(row);
}

/** The user's latest, for the settings page to show after a reload. */
export async function latestExport(deps: Pick<Deps, "db">, user: AuthUser): Promise<DataExport | null> {
  const [row] = await deps.db
    .select()
    .from(dataExports)
    .where(eq(dataExports.userId, user.id))
    .orderBy(desc(dataExports.createdAt))
    .limit(1);
  return row ? shown(row) : null;
}

/**
 * Takes the oldest archive waiting (or one whose instance stopped preparing it) and prepares it: written to a file
 * under DATA_DIR, then its link mailed. Answers whether there was one.
 */
export async function prepareNextExport(deps: ExportDeps) {
  const now = new Date();
  const waiting = deps.db
    .select({ id: dataExports.id })
    .from(dataExports)
    .where(
      or(eq(dataExports.status, "queued"), and(eq(dataExports.status, "running"), lt(dataExports.leaseUntil, now))),
    )
    .orderBy(dataExports.createdAt)
    .limit(1)
    .for("update", { skipLocked: true });
  const [row] = await deps.db
    .update(dataExports)
    .set({ status: "running", leaseUntil: new Date(now.getTime() + LEASE_MS) })
    .where(inArray(dataExports.id, waiting))
    .returning();
  if (!row) return false;
  const [user] = await deps.db
    .select({ email: users.email, firstName: users.firstName })
    .from(users)
    .where(eq(users.id, row.userId));
  if (!user) return true;
  const file = archiveFile(deps.config, row.id);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await writeArchive(deps, row.userId, file);
    const token = crypto.randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + LINK_TTL_MS);
    await deps.db
      .update(dataExports)
      .set({
        status: "ready",
        tokenHash: hash(token),
        bytes: fs.statSync(file).size,
        readyAt: new Date(),
        expiresAt,
        leaseUntil: null,
      })
      .where(eq(dataExports.id, row.id));
    const link = `${deps.config.publicUrl}/api/exports/${row.id}/download/${token}`;
    await deps.mailer.queue({ to: user.email, ...exportReadyMail(user.firstName, link, expiresAt) });
  } catch (error) {
    deps.log.error({ err: error, exportId: row.id }, "preparing a data export failed");
    fs.rmSync(file, { force: true });
    await deps.db
      .update(dataExports)
      .set({ status: "failed", error: String((error as Error).message).slice(0, 500), leaseUntil: null })
      .where(eq(dataExports.id, row.id));
    await deps.mailer.queue({ to: user.email, ...exportFailedMail(user.firstName) });
  }
  return true;
}

/**
 * The mailed link: it works once, within 7 days. Claiming it and reading the file are one step for the caller:
 * the answer is the file's path, removed by `forgetDownloaded` once sent.
 */
export async function claimDownload(deps: Pick<Deps, "db" | "config">, id: string, token: string) {
  const [row] = await deps.db
    .update(dataExports)
    .set({ status: "downloaded", downloadedAt: new Date() })
    .where(
      and(
        eq(dataExports.id, id),
        eq(dataExports.tokenHash, hash(token)),
        eq(dataExports.status, "ready"),
        sql`${dataExports.expiresAt} > now()`,
      ),
    )
    .returning({ id: dataExports.id });
  const file = archiveFile(deps.config, id);
  if (!row || !fs.existsSync(file))
    throw new HttpError(
      410,
      "This download link was used already or has expired. Ask for a new archive in your settings.",
    );
  return file;
}

/** Removes archives downloaded or past their 7 days (their rows stay, for the settings page and the daily limit). */
export async function removeOldArchives(deps: Pick<Deps, "db" | "config">) {
  const gone = await deps.db
    .update(dataExports)
    .set({
      status: sql`case when ${dataExports.status} = 'ready' then 'expired'::export_status else ${dataExports.status} end`,
    })
    .where(
      or(
        and(eq(dataExports.status, "ready"), lt(dataExports.expiresAt, new Date())),
        and(eq(dataExports.status, "downloaded"), lt(dataExports.downloadedAt, new Date(Date.now() - 60 * 60_000))),
      ),
    )
    .returning({ id: dataExports.id });
  for (const row of gone) fs.rmSync(archiveFile(deps.config, row.id), { force: true });
}

/**
 * The job: prepares waiting archives one at a time on each instance (woken by a request, and every few seconds for
 * what another instance queued or left), and removes old ones every hour.
 */
export function createExportJob(deps: ExportDeps, { everyMs = 5000 } = {}) {
  let lastSweep = 0;
  return wakeable(
    async () => {
      while (await prepareNextExport(deps));
      if (Date.now() - lastSweep > 60 * 60_000) {
        lastSweep = Date.now();
        await removeOldArchives(deps);
      }
    },
    { everyMs, onError: (error) => deps.log.error({ err: error }, "data exports failed") },
  );
}
export type ExportJob = ReturnType<typeof createExportJob>;
