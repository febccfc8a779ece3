import { defineConfig } from "@chakra-ui/react";
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  markRecipe,
  nativeSelectSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  separatorRecipe,
  spinnerRecipe,
  textareaRecipe,
  textStyles,
  tokens,
} from "@chakra-ui/react/theme";

/**
 * Chakra UI's default theme, sliced to the components the app uses (Chakra's "bundle optimization" guide): the full
 * theme brings the recipes of sixty more components into every page's script. A component added to the app adds its
 * recipe here, or, if only some screens render it (menus, dialogs, tabs, tables, stats), with `useSlotRecipes`
 * (lib/use-recipes.ts) in the component that renders it; `test/client/theme.test.tsx` fails on a screen whose
 * component has no recipe.
 *
 * Solid teal is a shade darker than Chakra's: white text on teal.600 is 3.7:1, under WCAG AA's 4.5:1 for text; on
 * teal.700 it is 5.5:1. Error and warning text are darkened likewise.
 */
export const themeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens: {
      ...semanticTokens,
      colors: {
        ...semanticTokens.colors,
        teal: { ...semanticTokens.colors.teal, solid: { value: "{colors.teal.700}" } },
        // Error and warning text a shade darker on light backgrounds: red.500 on white is 3.8:1 and orange.600
        // 3.6:1, under WCAG AA's 4.5:1; red.700 and orange.700 pass.
        fg: {
          ...semanticTokens.colors.fg,
          error: { value: { _light: "{colors.red.700}", _dark: "{colors.red.400}" } },
          warning: { value: { _light: "{colors.orange.700}", _dark: "{colors.orange.300}" } },
        },
      },
    },
    textStyles,
    layerStyles,
    animationStyles,
    recipes: {
      badge: badgeRecipe,
      button: buttonRecipe,
      checkmark: checkmarkRecipe,
      code: codeRecipe,
      container: containerRecipe,
      heading: headingRecipe,
      icon: iconRecipe,
      input: inputRecipe,
      link: linkRecipe,
      mark: markRecipe,
      radiomark: radiomarkRecipe,
      separator: separatorRecipe,
      spinner: spinnerRecipe,
      textarea: textareaRecipe,
    },
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      card: cardSlotRecipe,
      field: fieldSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      radioGroup: radioGroupSlotRecipe,
    },
  },
});
