import { type ReactElement, useState } from "react";
import { useHydrated } from "../../lib/use-hydrated.tsx";
import type NavMenuListType from "./nav-menu-list.tsx";
import type { NavMenuItem } from "./nav-menu-list.tsx";

let NavMenuList: typeof NavMenuListType | undefined;
let loading: Promise<void> | undefined;
const loadMenu = () => {
  loading ??= import("./nav-menu-list.tsx").then((module) => {
    NavMenuList = module.default;
  });
  return loading;
};

/**
 * A menu of the bar whose menu code (positioning, focus, dismissal) is not fetched with the page: until it is, and on
 * the server, it is its button alone. Reaching for the button (hovering or focusing it) fetches the code; pressing it
 * opens the menu, as soon as the code is there. Once fetched, bars rendered afterwards have the menu at once.
 */
export function NavMenu({ trigger, items }: { trigger: (props: object) => ReactElement; items: NavMenuItem[] }) {
  const hydrated = useHydrated();
  const [pressed, setPressed] = useState(false);
  const [, setLoaded] = useState(false);
  if (NavMenuList && (pressed || hydrated)) {
    return <NavMenuList trigger={trigger({})} items={items} open={pressed} />;
  }
  return trigger({
    "aria-haspopup": "menu",
    "aria-expanded": false,
    onPointerEnter: () => void loadMenu(),
    onFocus: () => void loadMenu(),
    onClick: () => {
      setPressed(true);
      void loadMenu().then(() => setLoaded(true));
    },
  });
}
