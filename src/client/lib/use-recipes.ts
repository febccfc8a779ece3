import { type SlotRecipeConfig, useChakraContext } from "@chakra-ui/react";

/**
 * Adds the recipes of components that only some screens render (menus, dialogs, tabs, tables, stats) to the app's
 * theme when the first of them renders, rather than with the theme that every page makes at start
 * (app/theme-config.ts), so they are neither fetched nor merged there. Chakra UI looks a recipe up by its key when its
 * component first renders, so one added before is used as if the theme had it. Call it first in the component that
 * renders them (the browser and the server renderer alike).
 */
export function useSlotRecipes(recipes: Record<string, SlotRecipeConfig>) {
  const theme = useChakraContext()._config.theme as { slotRecipes: Record<string, SlotRecipeConfig> };
  for (const [key, recipe] of Object.entries(recipes)) theme.slotRecipes[key] ??= recipe;
}
