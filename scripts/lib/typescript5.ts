/**
 * `node --import ./scripts/lib/typescript5.ts`: the client generator (@hey-api/openapi-ts) builds its code with
 * TypeScript's compiler API, which TypeScript 7 no longer ships; it is handed TypeScript 5 under its alias.
 */
import { register } from "node:module";

const hook = `export async function resolve(specifier, context, next) {
  if (specifier === "typescript" && context.parentURL?.includes("/node_modules/@hey-api/"))
    return next("typescript5-for-codegen", context);
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, import.meta.url);
