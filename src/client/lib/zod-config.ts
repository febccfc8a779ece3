import { config } from "zod/mini";

// Zod compiles an object schema's checks with `new Function` where it may, and finds out whether it may by trying
// once as it makes the first one. The content security policy (`script-src 'self'`) refuses it: zod catches that,
// but the browser still reports a violation (Lighthouse's best practices count it). The app never may evaluate
// code, so zod is told not to try. It must run before any schema is made: main.tsx loads it before the app.
config({ jitless: true });
