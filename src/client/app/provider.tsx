import { ChakraProvider, createSystem, defaultConfig, defineConfig } from "@chakra-ui/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { ApiError } from "../lib/api-client.ts";

// A 4xx answer will not change on a second try; a network or server failure may.
const retry = (failures: number, error: unknown) => failures < 1 && !(error instanceof ApiError && error.status < 500);

/**
 * Chakra's defaults, with solid teal a shade darker: white text on teal.600 is 3.7:1, under WCAG AA's 4.5:1 for
 * text; on teal.700 it is 5.5:1.
 */
const system = createSystem(
  defaultConfig,
  defineConfig({
    theme: {
      semanticTokens: {
        colors: { teal: { solid: { value: "{colors.teal.700}" } } },
      },
    },
  }),
);

export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry, refetchOnWindowFocus: false } } });

/** The providers of every page; a server-rendered page passes the query client its data is in. */
export function AppProvider({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <ChakraProvider value={system}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </ChakraProvider>
  );
}
