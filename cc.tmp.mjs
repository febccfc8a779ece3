import { registerDrizzleResolve } from "./scripts/lib/drizzle-resolve.ts";
registerDrizzleResolve();
const t = performance.now();
await Promise.all([import("./src/server/env.ts"), import("./src/server/main.ts"), import("viem/accounts")]);
console.log("import", (performance.now() - t).toFixed(0), "ms");
