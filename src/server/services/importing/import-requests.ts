import fs from "node:fs";
import path from "node:path";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { ImportFormat, ImportRequest, ImportState } from "#shared/schemas/imports.ts";
import { imports } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { type ArchiveFile, HostileArchive, openArchive } from "./archive-file.ts";

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
export async function scanArchive(file: string, format: ImportFormat) {
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
