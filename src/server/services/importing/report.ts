import type { ImportedItem } from "./items.ts";

/** Items of an archive that are not imported, by why. */
export const SKIPPED = {
  page: "a page (only posts are imported)",
  attachment: "an attachment (brought as the posts' images)",
  other: "not a post (a menu item, a revision, a block)",
  trashed: "a post thrown away or never written",
  twice: "the same post a second time in the file",
  unsubscribed: "a reader who no longer takes mail",
} as const;

/** What became of an item that was read. */
export const OUTCOMES = {
  asItWas: "brought as it was",
  already: "already imported",
  held: "held for a moderator's review",
  partly: "brought with parts left out (listed below)",
  failed: "not brought (the reason is listed below)",
  draft: (why: string) => `made a draft: ${why}`,
} as const;

/** What writing an item answered: done (new or already there), and why it is not quite as the archive had it. */
export interface WriteOutcome {
  created: boolean;
  warnings: string[];
  /** Why it was written as a draft (no text left once cleaned). */
  draft?: string;
  held?: boolean;
}

/** The one line an item is counted under (`null`: it failed). */
export function outcomeOf(item: ImportedItem, result: WriteOutcome | null): string {
  if (item.kind === "skipped") return item.reason;
  if (!result) return OUTCOMES.failed;
  if (!result.created) return OUTCOMES.already;
  const draft = result.draft ?? (item.kind === "post" ? item.draftReason : undefined);
  if (draft) return OUTCOMES.draft(draft);
  if (result.held) return OUTCOMES.held;
  if (result.warnings.length > 0 || (item.kind === "post" && (item.notes?.length ?? 0) > 0)) return OUTCOMES.partly;
  return OUTCOMES.asItWas;
}

/** Every item of the archive counted once, under what became of it: the counts add up to the archive's items. */
export function tally() {
  const counts = new Map<string, number>();
  return {
    count(item: ImportedItem, result: WriteOutcome | null) {
      const reason = outcomeOf(item, result);
      counts.set(reason, (counts.get(reason) ?? 0) + 1);
    },
    lines: () => [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
  };
}
