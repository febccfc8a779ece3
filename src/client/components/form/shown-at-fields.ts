import { ApiError } from "../../lib/api-client.ts";

/**
 * Refusals whose every issue is shown beside its field (see useZodForm); the form's error line leaves them out. A
 * module of its own, so the error line does not bring the form library to pages without forms.
 */
const shownAtFields = new WeakSet<ApiError>();
export const markShownAtFields = (error: ApiError) => shownAtFields.add(error);
export const isShownAtFields = (error: unknown) => error instanceof ApiError && shownAtFields.has(error);
