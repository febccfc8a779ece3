import { Flex, Spinner } from "@chakra-ui/react";
import { Suspense } from "react";
import { Outlet } from "react-router-dom";
import { Footer } from "../components/layout/footer.tsx";
import { Navbar } from "../components/layout/navbar.tsx";
import { NoticeLines } from "../components/layout/notice-lines.tsx";
import { useFinishLogout } from "../features/auth/use-logout.ts";

export function Layout() {
  useFinishLogout();
  return (
    <Flex direction="column" minH="100dvh">
      <Navbar />
      <NoticeLines />
      <Flex as="main" direction="column" flex="1">
        <Suspense fallback={<Spinner m="10" alignSelf="center" aria-label="Loading page" />}>
          <Outlet />
        </Suspense>
      </Flex>
      <Footer />
    </Flex>
  );
}
