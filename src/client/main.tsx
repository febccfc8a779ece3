import { COLOR_MODE_STORAGE_KEY, SESSION_STORAGE_KEY } from "#shared/constants.ts";
import { HYDRATE_ATTRIBUTE, ROOT_ID, START_NOW_ATTRIBUTE } from "./app/page-shell.ts";

// The entry, kept tiny. Screens the browser renders start the app at once. A page the server rendered (a reader page,
// or the login and register forms) is already whole for a visitor who is not signed in: its script (React, the
// router, Chakra UI) loads at the first sign they want more than reading — a press, a key, a touch, a scroll towards
// the end of the list. Links work meanwhile as plain links. A signed-in reader's page starts at once, to show what is
// theirs, and so does a page only signed-in users may use (Create Blog), to send others to log in. On every page the
// server rendered, a button pressed before the app is there is pressed again once it is (so is the submit button that
// Enter presses in a form), a field left is left again, so the form checks it, and a file chosen is chosen again;
// what is typed or picked stays in its field, where the form finds it.

const root = document.getElementById(ROOT_ID);
if (!root) throw new Error("index.html has no #root element");
const hydrate = root.hasAttribute(HYDRATE_ATTRIBUTE);

// The colour mode, before anything else paints: a stored choice, or the system's (see lib/color-mode.ts). The page
// comes light (index.html), so only a dark one changes it: changing <html> restyles the whole page.
const stored = localStorage.getItem(COLOR_MODE_STORAGE_KEY);
if (stored === '"dark"' || (stored !== '"light"' && matchMedia("(prefers-color-scheme: dark)").matches)) {
  document.documentElement.classList.replace("light", "dark");
  document.documentElement.style.colorScheme = "dark";
}

const held = new Set<HTMLElement>();
/** A button pressed before the app is there: held, and pressed again once it is. */
function hold(event: MouseEvent) {
  const button = (event.target as Element | null)?.closest<HTMLElement>("button, [role=button]");
  if (!button || !root?.contains(button)) return;
  event.preventDefault();
  event.stopPropagation();
  held.add(button);
  void start();
}
const left = new Set<Element>();
/**
 * A form field left before the app is there: the form hears of it once the app is (errors show after a touch:
 * docs/specification.md §Validation rules).
 */
function noteLeft(event: FocusEvent) {
  const field = event.target as Element | null;
  if (field?.matches("input, textarea, select") && root?.contains(field)) left.add(field);
}
const chosen = new Set<HTMLInputElement>();
/** A file chosen before the app is there: its input changes again once the app is, so the form takes it. */
function noteChosen(event: Event) {
  const field = event.target;
  if (field instanceof HTMLInputElement && field.type === "file" && root?.contains(field)) chosen.add(field);
}
function onScroll() {
  if (window.innerHeight + window.scrollY > document.documentElement.scrollHeight - 1200) void start();
}

/** Lets the browser paint and handle input between two pieces of start-up work. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The app's largest pieces run each in a task of their own before the rest of its modules do in the next: Chakra UI's
 * styling code and the theme's recipes, then the theme built from them (createSystem, the largest single piece of
 * start-up work, itself in eight tasks: app/system-steps.ts), then React, then the form libraries: several short
 * tasks rather than one long one that holds a painted page (decision 006). The API's schemas come with the rest:
 * zod/mini makes them all in a few milliseconds (decision 022). (Only modules whose exports the app uses whole: a
 * library imported whole here would keep all it exports in the build, and the app's own modules share chunks whose
 * order of running this must not change.)
 */
async function beforeApp() {
  const { makeSystemInSteps } = await import("./app/system-steps.ts");
  await nextTask();
  await makeSystemInSteps(nextTask);
  await import("./app/theme.ts").then(nextTask);
  await import("react-dom/client").then(nextTask);
  // zod and react-hook-form (their chunk), configured before the app's modules make their schemas (see the file).
  await import("./lib/zod-config.ts").then(nextTask);
}

let started: Promise<void> | undefined;
function start() {
  started ??= beforeApp()
    .then(() => import("./start.tsx"))
    // The app's modules run in one task, the start (the query cache, the screen's chunk asked for) in the next.
    .then(async (app) => {
      await nextTask();
      return app.start(root as HTMLElement, hydrate);
    })
    .then(() => {
      removeEventListener("click", hold, true);
      removeEventListener("scroll", onScroll);
      removeEventListener("focusout", noteLeft, true);
      removeEventListener("change", noteChosen, true);
      for (const field of chosen) {
        if (field.isConnected && field.files?.length) field.dispatchEvent(new Event("change", { bubbles: true }));
      }
      // React hears a field's blur as `focusout`; one focused again since will be left again.
      for (const field of left) {
        if (field.isConnected && field !== document.activeElement)
          field.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
      }
      for (const button of held) if (button.isConnected) button.click();
    });
  return started;
}

if (hydrate) {
  addEventListener("click", hold, true);
  addEventListener("focusout", noteLeft, true);
  addEventListener("change", noteChosen, true);
}
if (!hydrate || root.hasAttribute(START_NOW_ATTRIBUTE) || localStorage.getItem(SESSION_STORAGE_KEY)) void start();
else {
  for (const type of ["pointerdown", "keydown", "touchstart", "focusin"]) {
    addEventListener(type, () => void start(), { capture: true, passive: true, once: true });
  }
  addEventListener("scroll", onScroll, { passive: true });
}
