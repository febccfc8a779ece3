import { Box, Container, Heading } from "@chakra-ui/react";
import { useLocation, useParams, useSearchParams } from "react-router-dom";
import { QueryState } from "../../components/query-state.tsx";
import { useCategory } from "../../features/admin/api/categories.ts";
import {
  AddCategoryForm,
  CategoryTable,
  UpdateCategoryForm,
} from "../../features/admin/components/category-screens.tsx";
import { PaymentsTabs, UserRewards } from "../../features/admin/components/payments-screen.tsx";
import { SiteSettingsForm, SystemStatusPanel } from "../../features/admin/components/settings-screen.tsx";
import { UsersList } from "../../features/admin/components/users-list.tsx";
import { useCategories } from "../../features/categories/api/get-categories.ts";
import { BlockedDomains } from "../../features/federation/components/blocked-domains.tsx";
import { SendMessageForm } from "../../features/messages/components/send-message-form.tsx";
import { useUser } from "../../features/users/api/get-user.ts";
import { fullName } from "../../lib/format.ts";
import { useSiteSettings } from "../../lib/site-settings.ts";

const Panel = ({ children, wide }: { children: React.ReactNode; wide?: boolean }) => (
  <Container maxW={wide ? "6xl" : "lg"} py="8">
    <Box borderWidth="1px" borderRadius="xl" p={{ base: "4", md: "8" }} bg="bg.panel">
      {children}
    </Box>
  </Container>
);

export const UsersRoute = () => (
  <Panel wide>
    <Heading as="h1" size="2xl" mb="5">
      Authors
    </Heading>
    <UsersList />
  </Panel>
);

export const AddCategoryRoute = () => (
  <Panel>
    <AddCategoryForm />
  </Panel>
);

export function CategoryListRoute() {
  const categories = useCategories();
  return (
    <Panel wide>
      <Heading as="h1" size="2xl" mb="5">
        Category List
      </Heading>
      <CategoryTable
        categories={categories.data?.items ?? []}
        loading={categories.isPending}
        error={categories.error}
      />
    </Panel>
  );
}

export function UpdateCategoryRoute() {
  const { id = "" } = useParams();
  const category = useCategory(id);
  return (
    <Panel>
      <QueryState query={category} label="Loading category">
        {(data) => <UpdateCategoryForm key={data.id} category={data} />}
      </QueryState>
    </Panel>
  );
}

export function SendMailRoute() {
  const state = useLocation().state as { email?: string; id?: string; name?: string } | null;
  return (
    <Panel>
      <SendMessageForm recipient={{ email: state?.email ?? "", id: state?.id ?? "", name: state?.name ?? "" }} />
    </Panel>
  );
}

export function SettingsRoute() {
  const settings = useSiteSettings();
  return (
    <Panel wide>
      <Heading as="h1" size="2xl" mb="6">
        Settings
      </Heading>
      <Box display="grid" gridTemplateColumns={{ base: "1fr", md: "1fr 1fr" }} gap="10">
        <SiteSettingsForm settings={settings} />
        <SystemStatusPanel />
        <BlockedDomains />
      </Box>
    </Panel>
  );
}

/** Payments, and with `?user=` that user's rewards first. */
export function PaymentsRoute() {
  const userId = useSearchParams()[0].get("user");
  return (
    <Panel wide>
      <Heading as="h1" size="2xl" mb="5">
        Payments
      </Heading>
      {userId && <RewardsOf userId={userId} />}
      <PaymentsTabs />
    </Panel>
  );
}

function RewardsOf({ userId }: { userId: string }) {
  const user = useUser(userId);
  return (
    <Box mb="8">
      <Heading as="h2" size="lg" mb="3">
        {user.data ? fullName(user.data) : "User"}
      </Heading>
      <UserRewards userId={userId} />
    </Box>
  );
}
