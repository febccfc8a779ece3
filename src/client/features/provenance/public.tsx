import { getDefaultStore, useAtomValue } from "jotai";
import { lazy, Suspense } from "react";
import { revisionToSignAtom } from "./pending.ts";

// The provenance feature's door. The badge is plain markup (server-rendered with the post); asking an author to sign
// loads on demand, and the wallet's code only once they press "Sign this revision".
export { ProvenanceBadge } from "./components/provenance-badge.tsx";

const RevisionPromptIsland = lazy(() => import("./components/revision-prompt.tsx"));
const SignRevisionIsland = lazy(() =>
  import("./components/sign-revision.tsx").then((module) => ({ default: module.SignRevision })),
);

/** After saving a published post: ask its author, on the page they are sent to, to sign the new revision. */
export const askToSignRevision = (postId: string, shownOn: string) =>
  getDefaultStore().set(revisionToSignAtom, { postId, shownOn });

/** The layout's slot for that ask: nothing (and nothing loaded) unless an author just published. */
export function RevisionPrompt() {
  const pending = useAtomValue(revisionToSignAtom);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <RevisionPromptIsland />
    </Suspense>
  );
}

/** On the post's page, for its author: "Sign this revision" while the latest one is unsigned. */
export const SignThisRevision = ({ postId }: { postId: string }) => (
  <Suspense fallback={null}>
    <SignRevisionIsland postId={postId} />
  </Suspense>
);
