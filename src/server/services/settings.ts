import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "#shared/schemas/settings.ts";
import { siteSettings } from "../db/schema.ts";
import type { Deps } from "./core/deps.ts";
import { cacheTags } from "./core/tags.ts";

/** The site's name and description: the single row, or the defaults while no admin has changed them. */
export async function readSettings(deps: Pick<Deps, "db">): Promise<SiteSettings> {
  const [row] = await deps.db
    .select({ siteName: siteSettings.siteName, siteDescription: siteSettings.siteDescription })
    .from(siteSettings);
  return row ?? DEFAULT_SITE_SETTINGS;
}

/** The admin's name and description replace the row (created the first time). */
export async function updateSettings(deps: Pick<Deps, "db" | "changed">, settings: SiteSettings) {
  await deps.db
    .insert(siteSettings)
    .values({ id: 1, ...settings })
    .onConflictDoUpdate({ target: siteSettings.id, set: { ...settings, updatedAt: new Date() } });
  deps.changed([cacheTags.settings]);
  return readSettings(deps);
}
