import { createSystem, defaultBaseConfig, type SystemContext } from "@chakra-ui/react";
import { themeConfig } from "./theme-config.ts";

type InSteps = (...configs: Parameters<typeof createSystem>) => Generator<void, SystemContext>;

let made: SystemContext | undefined;

/**
 * Makes the app's system a step a task, so the page can paint and take input between them: made at once, it held a
 * phone's main thread for over 100 ms. The steps are the build's (`createSystem.inSteps`,
 * scripts/lib/chakra-ui-patches.ts); where they are not (Node, the tests) it is made at once. main.tsx calls this
 * before theme.ts takes the system.
 */
export async function makeSystemInSteps(pause: () => Promise<unknown>): Promise<void> {
  const inSteps = (createSystem as { inSteps?: InSteps }).inSteps;
  if (!inSteps) return;
  const steps = inSteps(defaultBaseConfig, themeConfig);
  for (;;) {
    const step = steps.next();
    if (step.done) {
      made ??= step.value;
      return;
    }
    await pause();
  }
}

/** The app's Chakra UI system: the one made in steps, or made now. */
export function madeSystem(): SystemContext {
  made ??= createSystem(defaultBaseConfig, themeConfig);
  return made;
}
