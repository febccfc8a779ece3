import { oneLine } from "#shared/text.ts";
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

export const exportReadyMail = (firstName: string, link: string, expiresAt: Date) => {
  const subject = "Your Penchain data is ready";
  const lead = `Hi ${oneLine(firstName)}, the archive of your posts, their images, your comments, followers, subscribers and payments is ready.`;
  const note = `The link works once, until ${day(expiresAt)} (UTC). Inside is a README, and ghost.json to import your posts into Ghost.`;
  return {
    subject,
    text: `${lead}\n\n${link}\n\n${note}\n`,
    html: mailLayout(
      subject,
      `<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(link)}" style="background:#0d9488;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Download my data</a></p>
<p>${escapeHtml(note)}</p>`,
    ),
  } satisfies MailContent;
};

export const exportFailedMail = (firstName: string) =>
  mail("Your Penchain data could not be prepared", [
    `Hi ${oneLine(firstName)},`,
    "Something went wrong while preparing your archive. Nothing was lost: ask for it again in your settings, and tell the site's admins if it happens again.",
  ]);
