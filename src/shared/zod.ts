import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

// The API's schemas are written with zod/mini (decision 022): they run in the browser too, and classic zod gives every
// schema every method, so the browser's script carried all of zod's schema kinds whichever the contract used. Checks
// without a message of their own speak English, as classic zod's do.
config(en());

export * as z from "zod/mini";
