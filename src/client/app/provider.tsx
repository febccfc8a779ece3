import { ChakraProvider, defaultSystem } from "@chakra-ui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ApiError } from "../lib/api-client.ts";

// A 4xx answer will not change on a second try; a network or server failure may.
const retry = (failures: number, error: unknown) => failures < 1 && !(error instanceof ApiError && error.status < 500);

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry, refetchOnWindowFocus: false } } }),
  );
  return (
    <ChakraProvider value={defaultSystem}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ChakraProvider>
  );
}
