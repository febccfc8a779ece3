import { Chart, useChart } from "@chakra-ui/charts";
import { Box } from "@chakra-ui/react";
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";

// The text shades, which the theme makes light on a dark page (teal.solid, a fill, was teal.700 on both: the first
// line all but vanished in dark mode).
const COLORS = ["teal.fg", "orange.fg", "purple.fg", "blue.fg", "pink.fg", "green.fg"];

export interface ChartLine {
  key: string;
  label: string;
}

/**
 * Lines over time (recharts through Chakra UI's charts, so colours follow the theme in light and dark). Drawn for the
 * eye only: the table beside it carries the same numbers for everyone, so the drawing is hidden from screen readers.
 */
export function StatsChart({
  data,
  lines,
  decimals = false,
}: {
  data: Record<string, string | number>[];
  lines: ChartLine[];
  /** ETH: ticks between whole numbers. */
  decimals?: boolean;
}) {
  const chart = useChart({
    data,
    series: lines.map((line, index) => {
      const color = COLORS[index % COLORS.length] as string;
      // The legend's own swatch is Chakra's ColorSwatch, whose recipe the sliced theme leaves out (it drew nothing).
      const icon = <Box key={line.key} as="span" display="inline-block" boxSize="2.5" borderRadius="full" bg={color} />;
      return { name: line.key, label: line.label, color, icon };
    }),
  });
  return (
    <Chart.Root h="64" w="full" aspectRatio="auto" chart={chart} aria-hidden="true">
      <LineChart
        responsive
        style={{ width: "100%", height: "100%" }}
        data={chart.data}
        accessibilityLayer={false}
        margin={{ left: 0, right: 8, top: 8 }}
      >
        <CartesianGrid stroke={chart.color("border.muted")} vertical={false} />
        <XAxis
          dataKey={chart.key("label")}
          tickLine={false}
          axisLine={false}
          minTickGap={16}
          stroke={chart.color("fg.muted")}
        />
        <YAxis tickLine={false} axisLine={false} width={40} allowDecimals={decimals} stroke={chart.color("fg.muted")} />
        <Tooltip animationDuration={100} cursor={false} content={<Chart.Tooltip />} />
        <Legend content={<Chart.Legend />} />
        {chart.series.map((item) => (
          <Line
            key={item.name}
            isAnimationActive={false}
            dataKey={chart.key(item.name)}
            stroke={chart.color(item.color)}
            strokeWidth={2}
            dot={false}
          />
        ))}
      </LineChart>
    </Chart.Root>
  );
}
