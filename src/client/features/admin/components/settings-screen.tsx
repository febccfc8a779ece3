import { Code, DataList, Heading, Stack, Text } from "@chakra-ui/react";
import { dataListSlotRecipe } from "@chakra-ui/react/theme";
import { formatEther } from "viem";
import { type SiteSettings, type SystemStatus, siteSettingsSchema } from "#shared/schemas/settings.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SubmitButton } from "../../../components/form/submit-button.tsx";
import { TextField } from "../../../components/form/text-field.tsx";
import { useZodForm } from "../../../components/form/use-zod-form.ts";
import { QueryState } from "../../../components/query-state.tsx";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { useSaveSiteSettings, useSystemStatus } from "../api/settings.ts";

export function SiteSettingsForm({ settings }: { settings: SiteSettings }) {
  const save = useSaveSiteSettings();
  const form = useZodForm(siteSettingsSchema, {
    serverError: save.error,
    defaultValues: settings,
  });
  const onSubmit = form.handleSubmit((input) => save.mutate(input));
  return (
    <Stack asChild gap="4">
      <form onSubmit={onSubmit} noValidate>
        <Heading as="h2" size="lg">
          Site
        </Heading>
        <TextField label="Site name" registration={form.register("siteName")} error={form.formState.errors.siteName} />
        <TextField
          label="Site description"
          multiline
          registration={form.register("siteDescription")}
          error={form.formState.errors.siteDescription}
        />
        <ErrorLines error={save.error} />
        {save.isSuccess && <Text color="green.fg">Settings saved.</Text>}
        <SubmitButton pending={save.isPending}>Save settings</SubmitButton>
      </form>
    </Stack>
  );
}

/** Read-only: these come from the server's configuration, not from this page. */
export function SystemStatusPanel() {
  const status = useSystemStatus();
  return (
    <QueryState query={status} label="Loading status">
      {(data) => <SystemStatusList status={data} />}
    </QueryState>
  );
}

function SystemStatusList({ status: data }: { status: SystemStatus }) {
  useSlotRecipes({ dataList: dataListSlotRecipe });
  const rows: [string, React.ReactNode][] = [
    ["Database", data.database === "postgres" ? "PostgreSQL" : "Embedded PGlite"],
    ["Chain", `${data.chain.name} (chain id ${data.chain.id})`],
    ["RPC", <Code key="rpc">{data.chain.rpcUrl}</Code>],
    [
      "Fee contract",
      <Code key="fee" wordBreak="break-all">
        {data.feeRecipient}
      </Code>,
    ],
    ["Featured fee", `${formatEther(BigInt(data.feeWei))} ETH, ${data.minConfirmations} confirmation(s)`],
    [
      "Mail",
      `${data.mail.transport === "smtp" ? "SMTP" : "Files in the data folder (no SMTP_URL)"} · ${data.mail.sent} sent · ${data.mail.queued} queued`,
    ],
  ];
  return (
    <Stack gap="3">
      <Heading as="h2" size="lg">
        System
      </Heading>
      <DataList.Root orientation="horizontal">
        {rows.map(([label, value]) => (
          <DataList.Item key={label}>
            <DataList.ItemLabel>{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Stack>
  );
}
