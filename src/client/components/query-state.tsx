import { Container, Spinner, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { ErrorLines } from "./form/error-lines.tsx";
import { LoadMore } from "./load-more.tsx";

interface Loading<T> {
  isPending: boolean;
  data: T | undefined;
  error: unknown;
}

/**
 * One thing a screen loads: a spinner named `label` while it loads, the error line if it failed, else `children`
 * with it. `page`: the whole page is this thing, so both stand where the page would.
 */
export function QueryState<T>({
  query,
  label,
  page = false,
  children,
}: {
  query: Loading<T>;
  label: string;
  page?: boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner m={page ? "10" : undefined} role="status" aria-label={label} />;
  if (query.data === undefined) {
    const error = <ErrorLines error={query.error} />;
    return page ? (
      <Container maxW="3xl" py="10">
        {error}
      </Container>
    ) : (
      error
    );
  }
  return children(query.data);
}

interface Pages<T> extends Loading<{ pages: { items: T[] }[] }> {
  isSuccess: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * A paged list: a spinner named `label` while the first page loads, then the error line (the list's, or `error`
 * from an action on it), `empty` when there is nothing, `children` with the items so far, and "Load more".
 */
export function PagedList<T>({
  pages,
  label,
  empty,
  error,
  gap = "3",
  children,
}: {
  pages: Pages<T>;
  label: string;
  empty: string;
  error?: unknown;
  gap?: string;
  children: (items: T[]) => ReactNode;
}) {
  if (pages.isPending) return <Spinner role="status" aria-label={label} />;
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Stack gap={gap}>
      <ErrorLines error={error ?? pages.error} />
      {pages.isSuccess && items.length === 0 && <Text color="fg.muted">{empty}</Text>}
      {children(items)}
      <LoadMore pages={pages} />
    </Stack>
  );
}
