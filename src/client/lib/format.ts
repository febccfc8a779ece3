const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });

/** The spec's date format: day, short month, four-digit year (21 Nov 2026). */
export const formatDate = (iso: string) => DATE.format(new Date(iso));

export const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;
