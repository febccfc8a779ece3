import type { Plugin } from "vite";

/** The React Router whose production build `pureReactRouterComponents` reads; check it again after an upgrade. */
export const REACT_ROUTER_VERSION = "7.18.5";

/**
 * React Router's production build makes its components and contexts with `React.forwardRef(…)` and
 * `React.createContext(…)` at the top of its module, without the pure mark that lets a bundler drop the unused ones,
 * and then sets their `displayName`: every page kept `<Form>` (and `useSubmit`, `useFormAction` and the form helpers
 * under it), which the app never renders. This marks those calls pure and leaves the names to the functions' own (a
 * line of its own each, emptied: the source map holds). The build fails if the file no longer reads so.
 */
export function pureReactRouterComponents(): Plugin {
  const file = /react-router[\\/]dist[\\/]production[\\/]chunk-[\w-]+\.mjs$/;
  const call = /^(var \w+ = )(React\d*\.(?:forwardRef|createContext)\()/gm;
  const displayName = /^\w+\.displayName = "[\w.]+";$/gm;
  return {
    name: "penchain:pure-react-router-components",
    transform(code, id) {
      if (!file.test(id) || !code.includes("var Form = ")) return null;
      const changed = code.replace(call, "$1/* @__PURE__ */ $2").replace(displayName, "");
      if (!changed.includes("var Form = /* @__PURE__ */ React") || changed.includes('Form.displayName = "Form"')) {
        throw new Error(
          `${id} no longer reads as pureReactRouterComponents expects (React Router ${REACT_ROUTER_VERSION})`,
        );
      }
      return { code: changed, map: null };
    },
  };
}
