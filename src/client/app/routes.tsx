import { type ComponentType, lazy } from "react";
import { type RouteObject, useRoutes } from "react-router-dom";
import { RequireAccess } from "../features/auth/components/require-access.tsx";
import { Layout } from "./layout.tsx";
import { HomeRoute } from "./routes/home.tsx";
import { NotFoundRoute } from "./routes/not-found.tsx";
import { SCREENS, type Screen, screenAt } from "./screen-table.ts";

/**
 * A screen's element: its chunk's component, rendered at once once the chunk is in (fetched ahead by
 * `preloadScreen`) and through React.lazy before. So a server-rendered page whose chunk was fetched first hydrates
 * without showing the fallback (start.tsx and entry-server.tsx fetch the page's screen first).
 */
const loaded = new Map<string, ComponentType>();
function elementOf({ path, load, name }: Screen) {
  if (!load || !name) return <HomeRoute />;
  const Lazy = lazy(() => preload(path).then(() => ({ default: loaded.get(path) as ComponentType })));
  const Chunked = () => {
    const Component = loaded.get(path) ?? Lazy;
    return <Component />;
  };
  return <Chunked />;
}

async function preload(path: string) {
  const screen = SCREENS.find((item) => item.path === path);
  if (!screen?.load || !screen.name || loaded.has(path)) return;
  const module = await screen.load();
  loaded.set(path, module[screen.name] as ComponentType);
}

const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      ...SCREENS.map((screen) => ({
        path: screen.path,
        element: <RequireAccess access={screen.access}>{elementOf(screen)}</RequireAccess>,
      })),
      { path: "*", element: <NotFoundRoute /> },
    ],
  },
];

/** The screen at the router's address. */
export function AppRoutes() {
  return useRoutes(routes);
}

/** Fetches the chunk of the screen at `pathname`, if it has one of its own. */
export async function preloadScreen(pathname: string) {
  const screen = screenAt(pathname);
  if (screen) await preload(screen.path);
}
