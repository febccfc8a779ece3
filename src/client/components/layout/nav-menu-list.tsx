import { Menu, Portal } from "@chakra-ui/react";
import { menuSlotRecipe } from "@chakra-ui/react/theme";
import type { ReactElement } from "react";
import { useSlotRecipes } from "../../lib/use-recipes.ts";
import { RouterLink } from "../router-link.tsx";

export interface NavMenuItem {
  label: string;
  /** A link, or what choosing the item does. */
  to?: string;
  onSelect?: () => void;
}

/** A menu of the bar (Chakra's Menu: its keyboard and focus handling), with `trigger` as its button. */
export default function NavMenuList({
  trigger,
  items,
  open,
}: {
  trigger: ReactElement;
  items: NavMenuItem[];
  /** Open at once: the reader pressed the button before the menu was there. */
  open: boolean;
}) {
  useSlotRecipes({ menu: menuSlotRecipe });
  return (
    <Menu.Root defaultOpen={open}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content>
            {items.map((item) =>
              item.to ? (
                <Menu.Item key={item.to} value={item.to} asChild>
                  <RouterLink to={item.to}>{item.label}</RouterLink>
                </Menu.Item>
              ) : (
                <Menu.Item key={item.label} value={item.label} onSelect={item.onSelect}>
                  {item.label}
                </Menu.Item>
              ),
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
