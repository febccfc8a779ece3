import { desc, eq, sql } from "drizzle-orm";
import type { Category } from "#shared/schemas/categories.ts";
import type { PageQuery } from "#shared/schemas/pagination.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../../db/errors.ts";
import { categories, users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import { afterCursor, cursorKey, toPage } from "../../infra/cursor.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { cacheTags, EVERYTHING } from "../core/tags.ts";
import { toUserSummary, userSummaryColumns } from "../core/user-fields.ts";

const TITLE_TAKEN = "A category with this title already exists";
const select = (deps: Pick<Deps, "db">) =>
  deps.db
    .select({
      id: categories.id,
      title: categories.title,
      createdAt: categories.createdAt,
      cursorAt: cursorKey(categories.createdAt),
      creator: { ...userSummaryColumns, email: users.email },
    })
    .from(categories)
    .innerJoin(users, eq(users.id, categories.userId));

type Row = Awaited<ReturnType<typeof select>>[number];

/** Creators' e-mails are for admins only. */
const toCategory = (row: Row, viewer: AuthUser | null): Category => ({
  _id: row.id,
  id: row.id,
  title: row.title,
  createdAt: row.createdAt.toISOString(),
  user: { ...toUserSummary(row.creator), ...(viewer?.isAdmin ? { email: row.creator.email } : {}) },
});

export async function listCategories(deps: Pick<Deps, "db">, viewer: AuthUser | null, query: PageQuery) {
  const rows = await select(deps)
    .where(afterCursor(categories.createdAt, categories.id, query.cursor))
    .orderBy(desc(categories.createdAt), desc(categories.id))
    .limit(query.limit + 1);
  const page = toPage(rows, query.limit, (row) => [row.cursorAt, row.id]);
  return { items: page.items.map((row) => toCategory(row, viewer)), nextCursor: page.nextCursor };
}

export async function getCategory(deps: Pick<Deps, "db">, viewer: AuthUser | null, id: string) {
  const [row] = await select(deps).where(eq(categories.id, id));
  if (!row) throw new HttpError(404, "Category not found");
  return toCategory(row, viewer);
}

/** The category's title as stored when one matches `title` (case-insensitively), else null. */
export async function findCategoryTitle(deps: Pick<Deps, "db">, title: string) {
  const [row] = await deps.db
    .select({ title: categories.title })
    .from(categories)
    .where(sql`lower(${categories.title}) = lower(${title})`);
  return row?.title ?? null;
}

async function withUniqueTitle<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "categories_title_lower_key")) throw new HttpError(409, TITLE_TAKEN);
    throw error;
  }
}

export async function createCategory(deps: Pick<Deps, "db" | "changed">, admin: AuthUser, title: string) {
  const [row] = await withUniqueTitle(() => deps.db.insert(categories).values({ title, userId: admin.id }).returning());
  deps.changed([cacheTags.categories]);
  return getCategory(deps, admin, (row as { id: string }).id);
}

export async function renameCategory(deps: Pick<Deps, "db" | "changed">, admin: AuthUser, id: string, title: string) {
  const [row] = await withUniqueTitle(() =>
    deps.db.update(categories).set({ title, updatedAt: new Date() }).where(eq(categories.id, id)).returning(),
  );
  if (!row) throw new HttpError(404, "Category not found");
  // Every post shows its category's title.
  deps.changed(EVERYTHING);
  return getCategory(deps, admin, id);
}

export async function deleteCategory(deps: Pick<Deps, "db" | "changed">, admin: AuthUser, id: string) {
  const category = await getCategory(deps, admin, id);
  try {
    await deps.db.delete(categories).where(eq(categories.id, id));
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new HttpError(409, "This category is used by posts and cannot be deleted");
    throw error;
  }
  // Only an unused category can go: no post showed it.
  deps.changed([cacheTags.categories]);
  return category;
}
