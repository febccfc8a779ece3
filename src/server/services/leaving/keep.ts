import { and, eq, isNotNull } from "drizzle-orm";
import type { ClosingState } from "#shared/schemas/leaving.ts";
import { users } from "../../db/schema.ts";
import type { AuthUser } from "../core/auth-user.ts";
import type { Deps } from "../core/deps.ts";
import { NOTHING_PUBLIC } from "../core/tags.ts";
import { closingCancelledMail } from "./mails.ts";

// Signing in calls this: it lives apart from closing.ts, which imports the sessions of auth/.

/** Signing in (or asking) during the 14 days: the account stays, and its owner is told so. */
export async function keepAccount(
  deps: Pick<Deps, "db" | "mailer" | "changed">,
  user: AuthUser,
): Promise<ClosingState> {
  deps.changed(NOTHING_PUBLIC);
  if (!user.closingAt) return { closesAt: null };
  const [kept] = await deps.db
    .update(users)
    .set({ closingAt: null, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNotNull(users.closingAt)))
    .returning({ id: users.id });
  if (kept) await deps.mailer.queue({ to: user.email, ...closingCancelledMail(user.firstName) });
  return { closesAt: null };
}
