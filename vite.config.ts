import path from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const ROOT = import.meta.dirname;
// In `npm run dev` the API runs beside Vite; scripts/start.ts passes its URL.
const apiTarget = process.env.PENCHAIN_API_URL ?? "http://localhost:3000";

// `vite build` builds the browser client into dist/client; `vite build --ssr entry-server.tsx` the server renderer of
// reader pages into dist/server, which the server loads at run time.
export default defineConfig(({ isSsrBuild }) => ({
  root: path.join(ROOT, "src/client"),
  plugins: [react()],
  // The server renderer is one file with what it uses of React and Chakra UI: loading their hundreds of modules
  // one by one cost the server about 100 MB of memory.
  ssr: { noExternal: [/^@chakra-ui\//, /^@ark-ui\//, /^@zag-js\//, /^@emotion\//, /^@pandacss\//, /^@floating-ui\//] },
  build: {
    outDir: path.join(ROOT, isSsrBuild ? "dist/server" : "dist/client"),
    emptyOutDir: true,
    sourcemap: true,
    // The app shell (React, the router, Chakra) and the lazily loaded wallet chunk are each about 600 kB before
    // gzip; every screen and the wallet load on demand, so the default 500 kB warning only adds noise.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      onLog(level, log, handler) {
        // ox (under viem) names a Node module in code paths browsers never take.
        if (log.message.includes("node:worker_threads") && log.message.includes("/ox/")) return;
        handler(level, log);
      },
    },
  },
  server: {
    host: "127.0.0.1",
    proxy: { "/api": apiTarget, "/uploads": apiTarget },
  },
  test: {
    projects: [
      {
        test: {
          name: "unit",
          root: ROOT,
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "integration",
          root: ROOT,
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "client",
          root: ROOT,
          include: ["test/client/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["test/client/setup.ts"],
        },
      },
    ],
  },
}));
