import { useQuery } from "@tanstack/react-query";
import { userQueryOptions } from "../../../lib/user-details.ts";

export const useUser = (id: string) => useQuery(userQueryOptions(id));
