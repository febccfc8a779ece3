// Serves the real API on an in-memory PGlite database for client tests, which run in jsdom and so cannot host it.
// Prints the URL on its first line; stops on SIGTERM.
import { buildTestApp } from "./app.ts";
import { pgliteTarget } from "./databases.ts";

const app = await buildTestApp(await pgliteTarget.open());
const url = await app.listen({ host: "127.0.0.1", port: 0 });
process.stdout.write(`${url}\n`);
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
