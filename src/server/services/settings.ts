import { siteSettings } from "../db/schema.ts";
import type { Deps } from "./deps.ts";

/**
 * The site's name and description. The single row is created with the table's defaults the first time anyone asks;
 * after that a read is one select.
 */
export async function readSettings(deps: Pick<Deps, "db">) {
  let [row] = await deps.db.select().from(siteSettings);
  if (!row) {
    await deps.db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
    [row] = await deps.db.select().from(siteSettings);
  }
  return { siteName: row?.siteName ?? "Penchain", siteDescription: row?.siteDescription ?? "" };
}
