import { Button, Container, Heading, Spinner, Stack, Text } from "@chakra-ui/react";
import type { ReactNode } from "react";
import { ApiError } from "../lib/api-client.ts";
import { ErrorLines } from "./form/error-lines.tsx";
import { LoadMore } from "./load-more.tsx";
import { RouterLink } from "./router-link.tsx";

interface Loading<T> {
  isPending: boolean;
  data: T | undefined;
  error: unknown;
}

/** What a page says when the thing it shows is not there (a 404): its heading and the way back. */
export interface Missing {
  heading: string;
  why: string;
  back: { to: string; label: string };
}

/**
 * One thing a screen loads: a spinner named `label` while it loads, the error line if it failed, else `children`
 * with it. `page`: the whole page is this thing, so both stand where the page would, and a 404 says `missing`.
 */
export function QueryState<T>({
  query,
  label,
  page = false,
  missing,
  children,
}: {
  query: Loading<T>;
  label: string;
  page?: boolean;
  missing?: Missing;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Spinner m={page ? "10" : undefined} role="status" aria-label={label} />;
  if (query.data === undefined) {
    const error = <ErrorLines error={query.error} />;
    if (!page) return error;
    const gone = missing && query.error instanceof ApiError && query.error.status === 404;
    return (
      <Container maxW="3xl" py="10">
        {gone ? (
          <Stack gap="4" align="start">
            <Heading as="h1" size="xl">
              {missing.heading}
            </Heading>
            <Text color="fg.muted">{missing.why}</Text>
            <Button asChild colorPalette="teal" variant="outline">
              <RouterLink to={missing.back.to}>{missing.back.label}</RouterLink>
            </Button>
          </Stack>
        ) : (
          error
        )}
      </Container>
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
  /** What an empty list says: a line, or what to do about it. */
  empty: ReactNode;
  error?: unknown;
  gap?: string;
  children: (items: T[]) => ReactNode;
}) {
  if (pages.isPending) return <Spinner role="status" aria-label={label} />;
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Stack gap={gap}>
      <ErrorLines error={error ?? pages.error} />
      {pages.isSuccess &&
        items.length === 0 &&
        (typeof empty === "string" ? <Text color="fg.muted">{empty}</Text> : empty)}
      {children(items)}
      <LoadMore pages={pages} />
    </Stack>
  );
}
