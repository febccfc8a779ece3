import type { Payment } from "../../../../shared/schemas/payments.ts";

export const adminKeys = {
  users: () => ["admin-users"] as const,
  payments: (purpose?: Payment["purpose"]) => (purpose ? (["payments", purpose] as const) : (["payments"] as const)),
  rewards: (userId?: string) => (userId ? (["rewards", userId] as const) : (["rewards"] as const)),
  status: () => ["settings", "status"] as const,
};
