// In UTC, so the server's HTML and the reader's browser show the same day.
const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** The spec's date format: day, short month, four-digit year (21 Nov 2026). */
export const formatDate = (iso: string) => DATE.format(new Date(iso));

export const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;

/** A hash or address short enough for a table cell: 0x1234…cdef. */
export const shortHex = (hex: string) => `${hex.slice(0, 6)}…${hex.slice(-4)}`;

/**
 * A moment in the reader's own time zone, for what only the browser renders (an author's schedule):
 * "Mon, 23 Nov 2026, 14:05".
 */
export const formatLocalDateTime = (iso: string) =>
  new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** An instant as a `datetime-local` input's value in the browser's time zone ("2026-11-23T14:05"). */
export function toLocalInput(iso: string) {
  const at = new Date(iso);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
