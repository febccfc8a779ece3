import { escapeHtml } from "./html.ts";

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** Headers besides the usual ones (a list's unsubscribe headers). */
  headers?: Record<string, string>;
}

const ACCOUNT_FOOTER = "You receive this e-mail because of your Penchain account.";

/** A mail's HTML: the brand, a title, the body (already HTML) and a footer (already HTML: links may stand in it). */
export function mailLayout(title: string, body: string, footerHtml = escapeHtml(ACCOUNT_FOOTER)) {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a202c;max-width:560px;margin:auto;padding:24px">
<h2 style="color:#0d9488">Penchain</h2><h3>${escapeHtml(title)}</h3>${body}
<p style="color:#718096;font-size:12px">${footerHtml}</p></body></html>`;
}
const layout = (title: string, body: string) => mailLayout(title, body);

function linkMail(
  subject: string,
  greeting: string,
  lead: string,
  action: string,
  link: string,
  note: string,
): MailContent {
  return {
    subject,
    text: `${greeting}\n\n${lead}\n\n${link}\n\n${note}\n`,
    html: layout(
      subject,
      `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(link)}" style="background:#0d9488;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px">Or open this link: ${escapeHtml(link)}</p><p>${escapeHtml(note)}</p>`,
    ),
  };
}

export const verifyEmailMail = (firstName: string, link: string) =>
  linkMail(
    "Verify your Penchain account",
    `Hi ${firstName},`,
    "Please confirm your e-mail address to verify your account.",
    "Verify my account",
    link,
    "If you did not create a Penchain account, ignore this e-mail.",
  );

export const resetPasswordMail = (firstName: string, link: string) =>
  linkMail(
    "Reset your Penchain password",
    `Hi ${firstName},`,
    "Someone asked to reset your password. The link works once, within 10 minutes.",
    "Reset my password",
    link,
    "If it was not you, ignore this e-mail: your password stays the same.",
  );

export function userMessageMail(from: { name: string; email: string }, subject: string, message: string): MailContent {
  const intro = `${from.name} (${from.email}) sent you a message on Penchain. Reply to this e-mail to answer them.`;
  return {
    subject,
    text: `${intro}\n\n${message}\n`,
    html: layout(
      subject,
      `<p>${escapeHtml(intro)}</p><blockquote style="border-left:3px solid #cbd5e0;padding-left:12px;white-space:pre-wrap">${escapeHtml(message)}</blockquote>`,
    ),
  };
}

/** A notice about the account itself, with what to do if it was not the owner. */
function noticeMail(subject: string, firstName: string, lead: string, note: string): MailContent {
  return {
    subject,
    text: `Hi ${firstName},\n\n${lead}\n\n${note}\n`,
    html: layout(subject, `<p>Hi ${escapeHtml(firstName)},</p><p>${escapeHtml(lead)}</p><p>${escapeHtml(note)}</p>`),
  };
}

const notYou = (siteUrl: string) =>
  `If you did not do this, set a new password at ${siteUrl}/password-reset-token at once and tick "Also unlink my verified wallet", then contact an admin.`;

export const passwordChangedMail = (
  firstName: string,
  siteUrl: string,
  change: { how: "changed" | "reset"; walletUnlinked: boolean },
) =>
  noticeMail(
    "Your Penchain password was changed",
    firstName,
    `The password of your Penchain account was ${change.how} just now${
      change.walletUnlinked ? ", and the wallet verified for logging in was unlinked" : ""
    }. Every other session was logged out.`,
    notYou(siteUrl),
  );

export const walletLinkedMail = (firstName: string, address: string, siteUrl: string) =>
  noticeMail(
    "A wallet was linked to your Penchain account",
    firstName,
    `The wallet ${address} was verified for your Penchain account: it can now log in without your password.`,
    notYou(siteUrl),
  );

export const emailChangedMail = (firstName: string, newEmail: string, siteUrl: string) =>
  noticeMail(
    "Your Penchain e-mail address was changed",
    firstName,
    `The e-mail address of your Penchain account was changed to ${newEmail}.`,
    `If you did not do this, reset your password at ${siteUrl}/password-reset-token and contact an admin.`,
  );
