import { APPEAL_DAYS, type ModerationAction } from "#shared/schemas/moderation.ts";
import { oneLine } from "#shared/text.ts";
import { escapeHtml } from "../../infra/html.ts";
import { type MailContent, mailLayout } from "../../infra/mail-templates.ts";

const WHAT_HAPPENED: Record<Exclude<ModerationAction, "dismiss">, string> = {
  hide: "was hidden by a moderator: nobody but you sees it now",
  remove: "was removed by a moderator",
  restore: "was restored by a moderator: everyone sees it again",
  warn: "earned you a warning from a moderator",
  limit:
    "was limited by a moderator: what you write now waits for a moderator's approval, and your posts are no longer listed, though their links still work",
  suspend:
    "was suspended by a moderator: you cannot sign in, and what you wrote is hidden. It is erased after 30 days unless the suspension is lifted",
};

/** To the person an action was about: what, under which rule, the moderator's note, and how to appeal. */
export function actionMail(input: {
  firstName: string;
  action: Exclude<ModerationAction, "dismiss">;
  item: string;
  rule: string;
  note: string;
  link: string;
  /** Where they may appeal it, for a decision that can be appealed. */
  appealLink?: string;
}): MailContent {
  const item = oneLine(input.item);
  const lines = [
    `Hello ${oneLine(input.firstName)},`,
    `${item} ${WHAT_HAPPENED[input.action]}.`,
    `Rule: ${oneLine(input.rule)}`,
    ...(input.note ? [`Moderator's note: ${oneLine(input.note)}`] : []),
    `See it, and the site's rules, here: ${input.link}`,
    ...(input.appealLink
      ? [`If you think this is wrong, you may appeal once within ${APPEAL_DAYS} days: ${input.appealLink}`]
      : []),
  ];
  return {
    subject: `A moderator's decision: ${oneLine(input.rule)}`,
    text: `${lines.join("\n\n")}\n`,
    html: mailLayout("A moderator's decision", lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")),
  };
}

/** To a reporter: the outcome of their report, never who decided. */
export function outcomeMail(input: { firstName: string; item: string; actioned: boolean }): MailContent {
  const outcome = input.actioned
    ? "A moderator looked at it and acted on it. Thank you for keeping the site's promise."
    : "A moderator looked at it and found that it breaks none of the site's rules.";
  const lines = [`Hello ${oneLine(input.firstName)},`, `You reported ${oneLine(input.item)}.`, outcome];
  return {
    subject: "Your report was looked at",
    text: `${lines.join("\n\n")}\n`,
    html: mailLayout("Your report was looked at", lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")),
  };
}

/** To the person who appealed: how another moderator decided. */
export function appealOutcomeMail(input: { firstName: string; rule: string; reversed: boolean }): MailContent {
  const lines = [
    `Hello ${oneLine(input.firstName)},`,
    input.reversed
      ? `Another moderator looked at your appeal of the decision under "${oneLine(input.rule)}" and reversed it: what it took away is back.`
      : `Another moderator looked at your appeal of the decision under "${oneLine(input.rule)}" and upheld it.`,
  ];
  return {
    subject: "Your appeal was decided",
    text: `${lines.join("\n\n")}\n`,
    html: mailLayout("Your appeal was decided", lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")),
  };
}
