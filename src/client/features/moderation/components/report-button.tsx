import { Button } from "@chakra-ui/react";
import { lazy, Suspense, useState } from "react";
import { FlagIcon } from "../../../components/icons.tsx";
import { useSession } from "../../../lib/session.ts";
import { useHydrated } from "../../../lib/use-hydrated.tsx";
import type { ReportTarget } from "./report-dialog.tsx";

// The dialog (and the rules it lists) loads when a reader first reports something.
const ReportDialog = lazy(() => import("./report-dialog.tsx"));

/** "Report" for a signed-in reader who is not the item's own author. */
export function ReportButton({ target, authorId }: { target: ReportTarget; authorId: string | null }) {
  const session = useSession();
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  if (!hydrated || !session || session.id === authorId) return null;
  return (
    <>
      <Button size="xs" variant="ghost" aria-label={`Report ${target.label}`} onClick={() => setOpen(true)}>
        <FlagIcon /> Report
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog target={target} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
