// Dates are spelled here rather than by Intl (decision 005): a page's first Intl formatter costs a phone dearly, and
// Node's and the browser's locale data need not agree where the server renders a date.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const twoDigits = (value: number) => String(value).padStart(2, "0");
const spellDate = (day: number, month: number, year: number) => `${day} ${MONTHS[month]} ${year}`;

/**
 * The spec's date format (docs/specification.md §Constants and limits): day, short month, four-digit year (21 Nov
 * 2026), in UTC, so server and browser agree.
 */
export function formatDate(iso: string) {
  const at = new Date(iso);
  return spellDate(at.getUTCDate(), at.getUTCMonth(), at.getUTCFullYear());
}

export const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;

/** A hash or address short enough for a table cell: 0x1234…cdef. */
export const shortHex = (hex: string) => `${hex.slice(0, 6)}…${hex.slice(-4)}`;

/**
 * A moment in the reader's own time zone, for what only the browser renders (an author's schedule, the exact time
 * of a comment): "23 Nov 2026, 14:05".
 */
export function formatLocalDateTime(iso: string) {
  const at = new Date(iso);
  return `${spellDate(at.getDate(), at.getMonth(), at.getFullYear())}, ${formatLocalTime(at)}`;
}

/** The time of day in the reader's own time zone: "14:05". */
export const formatLocalTime = (at: Date) => `${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}`;

/** The reader's offset from UTC now, as a time zone's name would be shown: "UTC+1", "UTC−5:30", "UTC". */
export function formatUtcOffset(at = new Date()) {
  const minutes = -at.getTimezoneOffset();
  if (minutes === 0) return "UTC";
  const size = Math.abs(minutes);
  return `UTC${minutes > 0 ? "+" : "−"}${Math.floor(size / 60)}${size % 60 ? `:${twoDigits(size % 60)}` : ""}`;
}

/** An instant as a `datetime-local` input's value in the browser's time zone ("2026-11-23T14:05"). */
export function toLocalInput(iso: string) {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
