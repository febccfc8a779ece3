import { useParams } from "react-router-dom";
import { StatsScreen } from "../../features/stats/components/stats-screen.tsx";
import { usePageTitle } from "../../lib/site-settings.ts";

// A chunk of its own: the charts' library loads on these screens alone.

export function StatsRoute() {
  usePageTitle("Stats");
  return <StatsScreen target={{ kind: "author" }} title="Your stats" live />;
}

export function PostStatsRoute() {
  const { id = "" } = useParams();
  usePageTitle("Post stats");
  return <StatsScreen key={id} target={{ kind: "post", id }} title="Post stats" />;
}

export function SiteStatsRoute() {
  usePageTitle("Site stats");
  return <StatsScreen target={{ kind: "site" }} title="Site stats" />;
}
