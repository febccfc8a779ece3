import { siteSettings } from "../db/schema.ts";
import type { Deps } from "./deps.ts";

/** The site's name and description; the single row is created with its defaults the first time anyone asks. */
export async function readSettings(deps: Pick<Deps, "db">) {
  await deps.db.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
  const [row] = await deps.db.select().from(siteSettings);
  return { siteName: row?.siteName ?? "Penchain", siteDescription: row?.siteDescription ?? "" };
}
