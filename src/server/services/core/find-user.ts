import { eq } from "drizzle-orm";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../http-error.ts";
import type { Deps } from "./deps.ts";
import { type UserWithType, userColumns } from "./user-fields.ts";

export async function findUser(deps: Pick<Deps, "db">, id: string): Promise<UserWithType> {
  const [user] = await deps.db.select(userColumns).from(users).where(eq(users.id, id));
  if (!user) throw new HttpError(404, "User not found");
  return user;
}
