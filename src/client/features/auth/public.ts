/** What the rest of the client may use of auth: the banner's "send the verification e-mail again". */
export { useRequestVerificationEmail } from "./api/request-verification-email.ts";
