import { ActionButton } from "./action-button.tsx";

interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The next page of a paged list, while there is one. */
export function LoadMore({ pages }: { pages: Pages }) {
  if (!pages.hasNextPage) return null;
  return (
    <ActionButton
      variant="outline"
      alignSelf="center"
      onClick={() => void pages.fetchNextPage()}
      busy={pages.isFetchingNextPage}
    >
      {pages.isFetchingNextPage ? "Loading..." : "Load more"}
    </ActionButton>
  );
}
