import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

// jsdom has no layout engine, so it lacks ResizeObserver; Chakra's popovers only need it to exist.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// A screen's answer from the in-process API can take over the default second on a CI machine busy with two workers;
// a `findBy…` still fails when what it waits for never comes.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
