import { ChakraProvider } from "@chakra-ui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ApiError } from "../lib/api-client.ts";
import { appSystem } from "./theme.ts";

// A 4xx answer will not change on a second try; a network or server failure may.
const retry = (failures: number, error: unknown) => failures < 1 && !(error instanceof ApiError && error.status < 500);

export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry, refetchOnWindowFocus: false } } });

/** The providers of every page; a server-rendered page passes the query client its data is in. */
export function AppProvider({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <ChakraProvider value={appSystem}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ChakraProvider>
  );
}
