import { Flex, Link, Spinner } from "@chakra-ui/react";
import { Suspense } from "react";
import { Outlet, useLocation } from "react-router-dom";
import { Footer } from "../components/layout/footer.tsx";
import { Navbar } from "../components/layout/navbar.tsx";
import { UnverifiedNotice } from "../features/auth/components/unverified-notice.tsx";
import { NotificationBell } from "../features/notifications/components/notification-bell.tsx";
import { RevisionPrompt } from "../features/provenance/public.tsx";
import { WalletSessionGuard } from "../features/wallet/public.tsx";
import { useSession } from "../lib/session.ts";
import { useSiteTitle } from "../lib/site-settings.ts";
import { useFinishLogout } from "../lib/use-logout.ts";
import { ScreenErrorBoundary } from "./screen-error.tsx";

export function Layout() {
  useFinishLogout();
  const { pathname } = useLocation();
  useSiteTitle(pathname);
  const session = useSession();
  return (
    <Flex direction="column" minH="100dvh">
      {session?.loginMethod === "wallet" && <WalletSessionGuard />}
      {/* Before the bar's dozen stops: a keyboard's first Tab can go straight to the page. */}
      <Link
        href="#main"
        position="absolute"
        top="2"
        insetStart="2"
        zIndex="skipNav"
        p="2"
        bg="bg"
        borderRadius="md"
        transform="translateY(-200%)"
        _focusVisible={{ transform: "none" }}
      >
        Skip to content
      </Link>
      <Navbar actions={session && <NotificationBell userId={session.id} />} />
      <UnverifiedNotice />
      <Flex as="main" id="main" tabIndex={-1} outline="none" direction="column" flex="1">
        <RevisionPrompt />
        <ScreenErrorBoundary address={pathname}>
          <Suspense fallback={<Spinner m="10" alignSelf="center" role="status" aria-label="Loading page" />}>
            <Outlet />
          </Suspense>
        </ScreenErrorBoundary>
      </Flex>
      <Footer />
    </Flex>
  );
}
