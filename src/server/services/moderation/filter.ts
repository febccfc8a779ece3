import { asc } from "drizzle-orm";
import {
  DataSet,
  englishDataset,
  englishRecommendedTransformers,
  type MatchPayload,
  parseRawPattern,
  RegExpMatcher,
  type RegExpMatcherOptions,
  resolveConfusablesTransformer,
  toAsciiLowerCaseTransformer,
} from "obscenity";
import type { FilterTermsInput } from "#shared/schemas/moderation.ts";
import type { Db } from "../../db/client.ts";
import { filterTerms } from "../../db/schema.ts";
import { validationError } from "../../http-error.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";

/** What the filter says of a text: let it through, hold it for a moderator, or refuse it. */
export interface Verdict {
  action: "allow" | "hold" | "refuse";
  /** The words it matched, as listed. */
  terms: string[];
  /** The field they were in. */
  field: string | null;
}

/** A site's terms are read again at most this often; an instance that changes them reads them at once. */
const TERMS_TTL_MS = 10_000;

/**
 * The maintained English list (obscenity's, with leetspeak and look-alike letters) holds for review: a list flags, a
 * moderator decides. Real words that contain a listed one are let through: obscenity's own whitelist, and these.
 */
const maintained = new RegExpMatcher({
  ...new DataSet<{ originalWord?: string }>()
    .addAll(englishDataset)
    .addPhrase((phrase) => phrase.addWhitelistedTerm("penistone").addWhitelistedTerm("shiitake"))
    .build(),
  ...englishRecommendedTransformers,
});
const wordOf = (match: MatchPayload) =>
  englishDataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord ?? "a listed word";

/**
 * Leetspeak reads 4 as a and 5 as s; a word matched mostly from digits ("Route 455", a hex id) is a number, whether
 * the word is on the maintained list or the site's.
 */
function readAsWord(text: string, match: MatchPayload) {
  const span = text.slice(match.startIndex, match.endIndex + 1);
  return (span.match(/\d/g)?.length ?? 0) <= (span.match(/\p{L}/gu)?.length ?? 0);
}

/** A site term as an obscenity pattern: a single word only as a whole word; its syntax characters taken literally. */
const patternOf = (term: string) => {
  const literal = term.replace(/[[\]?|\\]/g, (char) => `\\${char}`);
  return parseRawPattern(term.includes(" ") ? literal : `|${literal}|`);
};

/**
 * The site's terms in two matchers: words with leetspeak and look-alike letters, and terms with digits in them
 * ("1488") as written, since leetspeak would turn the text's digits into letters before they are compared.
 */
function siteMatcher(terms: { term: string; action: string }[]) {
  if (terms.length === 0) return null;
  const matcher = (withDigits: boolean, transformers: Pick<RegExpMatcherOptions, "blacklistMatcherTransformers">) =>
    new RegExpMatcher({
      blacklistedTerms: terms.flatMap((entry, id) =>
        /\d/.test(entry.term) === withDigits ? [{ id, pattern: patternOf(entry.term) }] : [],
      ),
      ...transformers,
    });
  return {
    terms,
    words: matcher(false, englishRecommendedTransformers),
    numbers: matcher(true, {
      blacklistMatcherTransformers: [resolveConfusablesTransformer(), toAsciiLowerCaseTransformer()],
    }),
  };
}

const kept = new WeakMap<Db, { at: number; site: Promise<ReturnType<typeof siteMatcher>> }>();

function siteTerms(db: Db) {
  const cached = kept.get(db);
  if (cached && Date.now() - cached.at < TERMS_TTL_MS) return cached.site;
  const site = db
    .select()
    .from(filterTerms)
    .then((rows) => siteMatcher(rows));
  kept.set(db, { at: Date.now(), site });
  site.catch(() => kept.delete(db));
  return site;
}

/**
 * Checks new text, field by field: any refused term of the site's refuses it; else any held term, or any word of the
 * maintained list, holds it. The verdict names the words that decided it and the first field they were in.
 */
export async function screen(deps: Pick<Deps, "db">, fields: Record<string, string>): Promise<Verdict> {
  const site = await siteTerms(deps.db);
  const found: { action: "hold" | "refuse"; term: string; field: string }[] = [];
  for (const [field, text] of Object.entries(fields)) {
    if (!text) continue;
    const words = site?.words.getAllMatches(text).filter((match) => readAsWord(text, match)) ?? [];
    for (const match of [...words, ...(site?.numbers.getAllMatches(text) ?? [])]) {
      const entry = site?.terms[match.termId];
      if (entry) found.push({ action: entry.action === "refuse" ? "refuse" : "hold", term: entry.term, field });
    }
    for (const match of maintained.getAllMatches(text))
      if (readAsWord(text, match)) found.push({ action: "hold", term: wordOf(match), field });
  }
  const refused = found.filter((entry) => entry.action === "refuse");
  const deciding = refused.length > 0 ? refused : found;
  if (deciding.length === 0) return { action: "allow", terms: [], field: null };
  return {
    action: refused.length > 0 ? "refuse" : "hold",
    terms: [...new Set(deciding.map((entry) => entry.term))],
    field: deciding[0]?.field ?? null,
  };
}

export const REFUSED = "This text has words the site does not allow. Please change them.";

/** Refuses text with a refused term, naming its field; answers whether the rest must wait for review. */
export async function screenOrRefuse(deps: Pick<Deps, "db">, fields: Record<string, string>) {
  const verdict = await screen(deps, fields);
  if (verdict.action === "refuse") throw validationError([{ path: [verdict.field ?? "text"], message: REFUSED }]);
  return verdict;
}

/** Text that cannot wait for review (a name, a bio): anything the filter flags is refused. */
export async function refuseFlagged(deps: Pick<Deps, "db">, fields: Record<string, string>) {
  const verdict = await screen(deps, fields);
  if (verdict.action !== "allow") throw validationError([{ path: [verdict.field ?? "text"], message: REFUSED }]);
}

export async function listTerms(deps: Pick<Deps, "db">) {
  const rows = await deps.db.select().from(filterTerms).orderBy(asc(filterTerms.term));
  return { terms: rows.map((row) => ({ term: row.term, action: row.action as "hold" | "refuse" })) };
}

/** The admin's list replaces the site's terms; this instance uses it at once, others within seconds. */
export async function replaceTerms(deps: Pick<Deps, "db" | "changed">, input: FilterTermsInput) {
  const unique = [...new Map(input.terms.map((entry) => [entry.term, entry])).values()];
  await deps.db.transaction(async (tx) => {
    await tx.delete(filterTerms);
    if (unique.length > 0) await tx.insert(filterTerms).values(unique);
  });
  kept.delete(deps.db);
  deps.changed(NOTHING_PUBLIC);
  return listTerms(deps);
}
