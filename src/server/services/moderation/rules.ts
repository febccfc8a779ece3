import { asc, eq, inArray, notInArray } from "drizzle-orm";
import type { Rule, RulesInput } from "#shared/schemas/moderation.ts";
import { siteRules } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";

/** What a report or an action names when it names no rule of the site's. */
export const REASON_TITLES = { spam: "Spam", other: "Other" } as const;

export async function listRules(deps: Pick<Deps, "db">): Promise<Rule[]> {
  const rows = await deps.db.select().from(siteRules).orderBy(asc(siteRules.position));
  return rows.map((row, index) => ({ id: row.id, number: index + 1, title: row.title, description: row.description }));
}

/**
 * The admin's list replaces the site's: a rule given with its id is edited in place (reports and actions naming it
 * keep pointing at it), one without is added, one left out is removed (what named it keeps the title it had).
 */
export async function replaceRules(deps: Pick<Deps, "db" | "changed">, input: RulesInput) {
  await deps.db.transaction(async (tx) => {
    const kept = input.rules.flatMap((rule) => (rule.id ? [rule.id] : []));
    if (kept.length > 0) {
      const known = await tx.select({ id: siteRules.id }).from(siteRules).where(inArray(siteRules.id, kept));
      if (known.length !== new Set(kept).size)
        throw new HttpError(409, "A rule was changed meanwhile: reload the rules");
    }
    await tx.delete(siteRules).where(kept.length > 0 ? notInArray(siteRules.id, kept) : undefined);
    for (const [position, rule] of input.rules.entries()) {
      const values = {
        position: position + 1,
        title: rule.title,
        description: rule.description,
        updatedAt: new Date(),
      };
      if (rule.id) await tx.update(siteRules).set(values).where(eq(siteRules.id, rule.id));
      else await tx.insert(siteRules).values(values);
    }
  });
  // The rules page is read uncached.
  deps.changed(NOTHING_PUBLIC);
  return listRules(deps);
}

/** The rule a report or an action names: one of the site's (by id), or spam, or other. */
export async function reasonOf(deps: Pick<Deps, "db">, reason: string) {
  if (reason === "spam" || reason === "other") return { ruleId: null, title: REASON_TITLES[reason] };
  const [rule] = await deps.db.select().from(siteRules).where(eq(siteRules.id, reason));
  if (!rule) throw new HttpError(400, "That rule no longer exists: choose another");
  return { ruleId: rule.id, title: rule.title };
}
