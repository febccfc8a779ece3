export const userKeys = {
  user: (id: string) => ["user", id] as const,
  profiles: () => ["profile"] as const,
  profile: (id: string) => ["profile", id] as const,
};
