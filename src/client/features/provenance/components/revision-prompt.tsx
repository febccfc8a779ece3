import { Container } from "@chakra-ui/react";
import { useAtom } from "jotai";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router-dom";
import { useProvenance } from "../api/get-provenance.ts";
import { revisionToSignAtom } from "../pending.ts";
import { SignRevision } from "./sign-revision.tsx";

/**
 * After an author publishes or updates a published post: the ask to sign its new revision, above the page they land
 * on. It goes when skipped, when there is nothing to sign (no verified wallet, signed already) and when they leave
 * that page.
 */
export default function RevisionPrompt() {
  const [pending, setPending] = useAtom(revisionToSignAtom);
  const postId = pending?.postId ?? null;
  const provenance = useProvenance(postId ?? "", postId !== null);
  const { pathname } = useLocation();
  const arrived = useRef(false);
  const [signed, setSigned] = useState(false);
  const nothingToSign = provenance.isError || (provenance.isSuccess && !provenance.data.toSign);

  useEffect(() => {
    if (!pending) return;
    if (pathname === pending.shownOn) arrived.current = true;
    else if (arrived.current) {
      arrived.current = false;
      setSigned(false);
      setPending(null);
    }
  }, [pathname, pending, setPending]);
  useEffect(() => {
    if (nothingToSign && !signed && !provenance.isFetching) setPending(null);
  }, [nothingToSign, signed, provenance.isFetching, setPending]);

  if (!postId) return null;
  return (
    <Container maxW="3xl" pt="4">
      <SignRevision postId={postId} onSkip={() => setPending(null)} onSigned={() => setSigned(true)} />
    </Container>
  );
}
