import { sql } from "drizzle-orm";
import { oneLine, plainText } from "#shared/text.ts";
import { categories } from "../../db/schema.ts";
import type { Deps } from "../core/deps.ts";
import { screen } from "../moderation/filter.ts";
import { decodeNumeric } from "./write.ts";

const FALLBACK_CATEGORY = "Uncategorized";

/** A category by its title (any case), or null. */
async function categoryNamed(deps: Pick<Deps, "db">, title: string) {
  const [row] = await deps.db
    .select({ id: categories.id, title: categories.title })
    .from(categories)
    .where(sql`lower(${categories.title}) = lower(${title})`);
  return row ?? null;
}

/**
 * The category an archive names, when the site has it. Categories are the site's: only an admin's import makes a
 * missing one (if the filter lets its name through); others file the post under "Uncategorized", or the oldest.
 */
async function categoryFor(deps: Pick<Deps, "db">, title: string | null, owner: { id: string; isAdmin: boolean }) {
  const name =
    oneLine(decodeNumeric(plainText(title ?? "")))
      .slice(0, 60)
      .trim() || FALLBACK_CATEGORY;
  const found = await categoryNamed(deps, name);
  if (found) return { id: found.id, note: null };
  if (owner.isAdmin && (await screen(deps, { title: name })).action === "allow") {
    await deps.db.insert(categories).values({ title: name, userId: owner.id }).onConflictDoNothing();
    const made = await categoryNamed(deps, name);
    if (made) return { id: made.id, note: null };
  }
  const [fallback] = await deps.db
    .select({ id: categories.id, title: categories.title })
    .from(categories)
    .orderBy(sql`lower(${categories.title}) <> lower(${FALLBACK_CATEGORY})`, categories.createdAt)
    .limit(1);
  if (!fallback) throw new Error("this site has no category to file it under yet");
  const note = title?.trim() ? `Its category "${name}" is not on this site: filed under "${fallback.title}".` : null;
  return { id: fallback.id, note };
}

/** The categories an import's posts go in, each found once (an archive names a few, many times). */
export function importCategories(deps: Pick<Deps, "db">, owner: { id: string; isAdmin: boolean }) {
  const found = new Map<string, ReturnType<typeof categoryFor>>();
  return async (title: string | null, warnings: string[]) => {
    const key = (title ?? "").trim().toLowerCase();
    let category = found.get(key);
    if (!category) {
      category = categoryFor(deps, title, owner);
      // A failure is not kept: the next post asks again.
      category.catch(() => found.delete(key));
      found.set(key, category);
    }
    const { id, note } = await category;
    if (note) warnings.push(note);
    return id;
  };
}
