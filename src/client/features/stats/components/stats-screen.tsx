import {
  Badge,
  Box,
  Button,
  Container,
  Field,
  Heading,
  HStack,
  Input,
  Link,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from "@chakra-ui/react";
import { tableSlotRecipe } from "@chakra-ui/react/theme";
import { type ReactNode, useState } from "react";
import type { Interval, Metric, Stats } from "#shared/schemas/stats.ts";
import { formatEth } from "#shared/text.ts";
import { ErrorLines } from "../../../components/form/error-lines.tsx";
import { SelectField } from "../../../components/form/select-field.tsx";
import { QueryState } from "../../../components/query-state.tsx";
import { RouterLink } from "../../../components/router-link.tsx";
import { useSlotRecipes } from "../../../lib/use-recipes.ts";
import { downloadStats, type Period, type StatsTarget, useLiveReadingNow, useStats } from "../api/stats.ts";
import { StatsChart } from "./stats-chart.tsx";

const PRESETS = {
  "48h": "The last 48 hours",
  "7d": "The last 7 days",
  "30d": "The last 30 days",
  "12m": "The last 12 months",
  range: "A range of dates",
} as const;
type Preset = keyof typeof PRESETS;

const DAY_MS = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** The period a preset means now (days in UTC, as the server counts them). */
function periodOf(preset: Preset, range: { from: string; to: string }): Period {
  const today = new Date();
  if (preset === "48h") {
    const from = new Date(Math.floor((today.getTime() - 47 * 3_600_000) / 3_600_000) * 3_600_000);
    return { from: from.toISOString(), interval: "hour" };
  }
  if (preset === "7d")
    return { from: isoDay(new Date(today.getTime() - 6 * DAY_MS)), to: isoDay(today), interval: "day" };
  if (preset === "12m") {
    const from = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 11, 1));
    return { from: isoDay(from), to: isoDay(today), interval: "month" };
  }
  if (preset === "range") {
    const days = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS + 1;
    return { ...range, interval: days <= 2 ? "hour" : days <= 731 ? "day" : "month" };
  }
  return { from: isoDay(new Date(today.getTime() - 29 * DAY_MS)), to: isoDay(today), interval: "day" };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** A bucket's start as people read it (UTC, like the buckets). */
function bucketLabel(iso: string, interval: Interval) {
  const at = new Date(iso);
  const day = `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]}`;
  if (interval === "month") return `${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
  if (interval === "day") return day;
  return `${day} ${String(at.getUTCHours()).padStart(2, "0")}:00`;
}

const shown = (unit: Metric["unit"], value: string) =>
  unit === "wei" ? formatEth(value) : Number(value).toLocaleString("en");

/** The change against the period before, in words and as a sign. */
function change(metric: Metric) {
  const [now, before] = [Number(metric.value), Number(metric.previous)];
  if (now === before) return { text: "No change on the period before", sign: 0 };
  if (before === 0) return { text: `New: none in the period before`, sign: 1 };
  const percent = Math.round(((now - before) / before) * 100);
  return { text: `${percent > 0 ? "+" : ""}${percent}% on the period before`, sign: Math.sign(percent) };
}

const CHARTS: Record<string, string> = {
  readers: "Readers",
  audience: "Audience",
  money: "Money (ETH)",
  site: "Accounts, posts and rewards",
  mail: "Mail",
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack as="section" aria-label={title} gap="3" borderWidth="1px" borderRadius="lg" p={{ base: "3", md: "5" }}>
      <Heading as="h2" size="md">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** A table that scrolls sideways on a phone rather than widening the page, and says so there. */
function NumbersTable({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  useSlotRecipes({ table: tableSlotRecipe });
  return (
    <Stack gap="1">
      {head.length > 2 && (
        <Text hideFrom="md" textStyle="xs" color="fg.muted" aria-hidden="true">
          Swipe the table sideways for its other columns.
        </Text>
      )}
      <Box overflowX="auto" maxH="80" overflowY="auto" tabIndex={0} aria-label={caption}>
        <Table.Root size="sm" stickyHeader>
          <Table.Caption srOnly>{caption}</Table.Caption>
          <Table.Header>
            <Table.Row>
              {head.map((name, index) => (
                <Table.ColumnHeader key={name} textAlign={index === 0 ? "start" : "end"}>
                  {name}
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((cells, row) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are the answer's, in its order
              <Table.Row key={row}>
                {cells.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                  <Table.Cell key={index} textAlign={index === 0 ? "start" : "end"} whiteSpace="nowrap">
                    {cell}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
    </Stack>
  );
}

function Charts({ stats }: { stats: Stats }) {
  const groups = [...new Set(stats.series.map((series) => series.chart))];
  return groups.map((group) => {
    const lines = stats.series.filter((series) => series.chart === group);
    const wei = lines.some((line) => line.unit === "wei");
    const data = stats.points.map((point) => ({
      label: bucketLabel(point.at, stats.interval),
      ...Object.fromEntries(
        lines.map((line) => [
          line.key,
          line.unit === "wei" ? Number(point.values[line.key]) / 1e18 : Number(point.values[line.key]),
        ]),
      ),
    }));
    const title = CHARTS[group] ?? group;
    return (
      <Section key={group} title={title}>
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4" alignItems="start">
          <StatsChart data={data} lines={lines} decimals={wei} />
          <NumbersTable
            caption={`${title} per ${stats.interval}${wei ? " (ETH)" : ""}`}
            head={[
              stats.interval === "hour" ? "Hour (UTC)" : stats.interval === "day" ? "Day" : "Month",
              ...lines.map((line) => line.label),
            ]}
            rows={[...stats.points]
              .reverse()
              .map((point) => [
                bucketLabel(point.at, stats.interval),
                ...lines.map((line) => shown(line.unit, point.values[line.key] ?? "0")),
              ])}
          />
        </SimpleGrid>
      </Section>
    );
  });
}

const DEVICE_NAMES: Record<string, string> = { desktop: "Desktop", phone: "Phone", tablet: "Tablet" };

function Rankings({ stats, target }: { stats: Stats; target: StatsTarget }) {
  const ranked = (name: string) => (name === "" ? "Direct, or from this site" : name);
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
      {target.kind !== "post" && (
        <Section title="Top posts">
          {stats.topPosts.length === 0 ? (
            <Text color="fg.muted">No reads in this period.</Text>
          ) : (
            <NumbersTable
              caption="Top posts"
              head={["Post", "Views", "Visitors"]}
              rows={stats.topPosts.map((post) => [
                <Link key={post.id} asChild color="teal.fg">
                  <RouterLink to={`/stats/posts/${post.id}`}>{post.name}</RouterLink>
                </Link>,
                post.views,
                post.visitors,
              ])}
            />
          )}
        </Section>
      )}
      <Section title="Sources">
        <NumbersTable
          caption="Where readers came from"
          head={["Source", "Views", "Visitors"]}
          rows={stats.sources.map((source) => [ranked(source.name), source.views, source.visitors])}
        />
      </Section>
      <Section title="Campaigns">
        {stats.campaigns.length === 0 ? (
          <Text color="fg.muted">No link with UTM parameters brought readers in this period.</Text>
        ) : (
          <NumbersTable
            caption="Campaigns (UTM source, medium and campaign)"
            head={["Campaign", "Source", "Medium", "Views", "Visitors"]}
            rows={stats.campaigns.map((c) => [c.name || "—", c.source || "—", c.medium || "—", c.views, c.visitors])}
          />
        )}
      </Section>
      <Section title="Devices">
        <NumbersTable
          caption="Devices"
          head={["Device", "Views", "Visitors"]}
          rows={stats.devices.map((device) => [
            DEVICE_NAMES[device.name] ?? device.name,
            device.views,
            device.visitors,
          ])}
        />
      </Section>
      {stats.featured.length > 0 && (
        <Section title="Featured posts">
          <NumbersTable
            caption="Views in the 7 days before and after the featured fee was paid"
            head={["Post", "Featured on", "Views before", "Views after"]}
            rows={stats.featured.map((post) => [
              post.title,
              post.featuredAt.slice(0, 10),
              post.viewsBefore,
              post.viewsAfter,
            ])}
          />
        </Section>
      )}
    </SimpleGrid>
  );
}

/** A number of the period: its name, its value and how it changed. */
function Figure({
  label,
  value,
  note,
  color = "fg.muted",
}: {
  label: string;
  value: string;
  note: string;
  color?: string | object;
}) {
  return (
    <Box as="li" borderWidth="1px" borderRadius="md" p="3">
      <Text textStyle="sm" color="fg.muted">
        {label}
      </Text>
      <Text textStyle="xl" fontWeight="semibold">
        {value}
      </Text>
      <Text textStyle="xs" color={color as never}>
        {note}
      </Text>
    </Box>
  );
}

function Totals({ stats }: { stats: Stats }) {
  return (
    <SimpleGrid as="ul" listStyleType="none" columns={{ base: 2, md: 3, lg: 4 }} gap="3" aria-label="Totals">
      {stats.totals.map((metric) => {
        const { text, sign } = change(metric);
        return (
          <Figure
            key={metric.key}
            label={metric.label}
            value={shown(metric.unit, metric.value)}
            note={text}
            color={sign > 0 ? { base: "green.700", _dark: "green.300" } : sign < 0 ? "fg.error" : "fg.muted"}
          />
        );
      })}
      {stats.now.map((gauge) => (
        <Figure key={gauge.key} label={gauge.label} value={gauge.value.toLocaleString("en")} note="Now" />
      ))}
    </SimpleGrid>
  );
}

/** An author's, a post's or the site's numbers over a period chosen here, as pictures and tables, and as CSV. */
export function StatsScreen({ target, title, live = false }: { target: StatsTarget; title: string; live?: boolean }) {
  const [preset, setPreset] = useState<Preset>("30d");
  const today = isoDay(new Date());
  const [range, setRange] = useState({ from: isoDay(new Date(Date.now() - 13 * DAY_MS)), to: today });
  const [period, setPeriod] = useState<Period>(() => periodOf("30d", range));
  const stats = useStats(target, period);
  const liveCount = useLiveReadingNow();
  const [downloading, setDownloading] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const choose = (next: Preset) => {
    setPreset(next);
    if (next !== "range") setPeriod(periodOf(next, range));
  };
  const download = () => {
    setDownloading({ busy: true, error: null });
    downloadStats(target, period).then(
      () => setDownloading({ busy: false, error: null }),
      (error: unknown) => setDownloading({ busy: false, error }),
    );
  };
  const readingNow = live && liveCount ? liveCount.count : stats.data?.readingNow;

  return (
    <Container maxW="6xl" py="8">
      <Stack gap="6">
        <HStack justify="space-between" wrap="wrap" gap="3">
          <Heading as="h1" size="2xl">
            {title}
          </Heading>
          {readingNow !== undefined && (
            <Badge colorPalette="green" size="lg" aria-live="polite">
              {readingNow} reading now
            </Badge>
          )}
        </HStack>
        <Text color="fg.muted">
          Counted without cookies: each reader once a day, people who ask not to be tracked and bots not at all. Days
          and hours are in UTC.
        </Text>
        <Text color="fg.muted" textStyle="sm">
          Views: every time a page was opened in the period. Visitors: the different readers among them, each once a
          day. A post's card counts otherwise: every opening since it was published, each reader at most once an hour,
          whoever they are.
        </Text>
        <HStack
          as="form"
          wrap="wrap"
          gap="3"
          align="end"
          onSubmit={(event) => {
            event.preventDefault();
            setPeriod(periodOf("range", range));
          }}
        >
          <SelectField label="Period" size="sm" width="56" value={preset} options={PRESETS} onChange={choose} />
          {preset === "range" && (
            <>
              <Field.Root width="auto">
                <Field.Label>From</Field.Label>
                <Input
                  size="sm"
                  type="date"
                  max={range.to}
                  value={range.from}
                  onChange={(event) => setRange({ ...range, from: event.target.value })}
                />
              </Field.Root>
              <Field.Root width="auto">
                <Field.Label>To</Field.Label>
                <Input
                  size="sm"
                  type="date"
                  min={range.from}
                  max={today}
                  value={range.to}
                  onChange={(event) => setRange({ ...range, to: event.target.value })}
                />
              </Field.Root>
              <Button size="sm" type="submit" colorPalette="teal">
                Show
              </Button>
            </>
          )}
          <Button size="sm" variant="outline" onClick={download} loading={downloading.busy} loadingText="Preparing CSV">
            Download CSV
          </Button>
        </HStack>
        <ErrorLines error={downloading.error} />
        <QueryState query={stats} label="Loading stats">
          {(data) => (
            <Stack gap="6" opacity={stats.isPlaceholderData ? 0.6 : 1} aria-busy={stats.isPlaceholderData}>
              <Totals stats={data} />
              <Charts stats={data} />
              <Rankings stats={data} target={target} />
            </Stack>
          )}
        </QueryState>
        {stats.isError && stats.data && <ErrorLines error={stats.error} />}
      </Stack>
    </Container>
  );
}
