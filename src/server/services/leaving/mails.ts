import { oneLine } from "#shared/notification-text.ts";
import { escapeHtml } from "../../infra/html.ts";
import { type MailContent, mailLayout } from "../../infra/mail-templates.ts";

const day = (date: Date) => date.toISOString().slice(0, 10);

function mail(subject: string, lines: string[]): MailContent {
  return {
    subject,
    text: `${lines.join("\n\n")}\n`,
    html: mailLayout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")),
  };
}

export const closingMail = (firstName: string, closesAt: Date, keepPosts: boolean, publicUrl: string) =>
  mail("Your Penchain account will be closed", [
    `Hi ${oneLine(firstName)},`,
    `You asked to close your Penchain account. It will be erased on ${day(closesAt)} (UTC): your profile, e-mail, wallet, likes, follows and drafts; ${keepPosts ? "your published posts stay, under “A former member”" : "your posts are removed"}, and your comments stay under “A former member”.`,
    `Changed your mind? Sign in before then and nothing is erased: ${publicUrl}/login`,
    "If it was not you, sign in now and change your password.",
  ]);

export const closingCancelledMail = (firstName: string) =>
  mail("Your Penchain account stays open", [
    `Hi ${oneLine(firstName)},`,
    "You signed in, so your account will not be closed. Nothing was erased.",
  ]);

export const closedMail = (firstName: string) =>
  mail("Your Penchain account was closed", [
    `Hi ${oneLine(firstName)},`,
    "Your account was closed and your personal data erased, as you asked. This is the last e-mail we send to this address.",
  ]);
