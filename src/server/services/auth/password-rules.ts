import { validationError } from "../../http-error.ts";

export const COMMON_PASSWORD =
  "This password is one of the most common ones, which attackers try first. Please choose another.";

let common: Promise<Set<string>> | undefined;
/** The 49,000 most common passwords of zxcvbn-ts's list, read once, when a password is first set. */
const commonPasswords = () => {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].map((password) => password.toLowerCase())),
  );
  return common;
};

/** Refuses a password from the list of the most common ones (whatever its case), as the password field's error. */
export async function assertUncommonPassword(password: string) {
  if ((await commonPasswords()).has(password.toLowerCase())) {
    throw validationError([{ path: ["password"], message: COMMON_PASSWORD }]);
  }
}
