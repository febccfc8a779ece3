import { oneLine } from "#shared/text.ts";
import { escapeHtml } from "../../infra/html.ts";
import { type MailContent, mailLayout } from "../../infra/mail-templates.ts";

const FOOTER = "You receive this because someone (we hope you) asked for it on Penchain. If it was not you, ignore it.";

/** The double opt-in: nothing else is sent to the address until its owner opens this link. */
export function confirmSubscriptionMail(authorName: string, link: string): MailContent {
  const author = oneLine(authorName);
  const subject = `Confirm your subscription to ${author}`;
  const lead = `Open this link to get ${author}'s new posts on Penchain by e-mail. Until you do, we send you nothing else.`;
  return {
    subject,
    text: `${lead}\n\n${link}\n\nThe link works for 7 days. ${FOOTER}\n`,
    html: mailLayout(
      subject,
      `<p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(link)}" style="background:#0d9488;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Confirm my subscription</a></p>
<p style="font-size:13px">Or open this link: ${escapeHtml(link)}</p><p>The link works for 7 days.</p>`,
      escapeHtml(FOOTER),
    ),
  };
}

/**
 * An imported list's one mail to each address: who asks (the author, from where they moved) and why, with the same
 * confirmation link as the form's. Nothing else follows unless it is opened.
 */
export function importedConfirmationMail(
  authorName: string,
  movedFrom: string,
  siteUrl: string,
  link: string,
): MailContent {
  const author = oneLine(authorName);
  const subject = `${author} has moved from ${movedFrom}: confirm to keep getting their posts`;
  const lead = `${author} used to send you their writing through ${movedFrom} and now publishes on Penchain (${siteUrl}). They brought their list of subscribers, and your address was on it.`;
  const ask = `To get ${author}'s new posts by e-mail from us, open this link. Until you do, we send you nothing else, not even a reminder.`;
  const footer = `If you never subscribed to ${author}, or no longer want their posts, ignore this mail: your address stays off the list.`;
  return {
    subject,
    text: `${lead}\n\n${ask}\n\n${link}\n\nThe link works for 7 days. ${footer}\n`,
    html: mailLayout(
      subject,
      `<p>${escapeHtml(lead)}</p><p>${escapeHtml(ask)}</p>
<p><a href="${escapeHtml(link)}" style="background:#0d9488;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Confirm my subscription</a></p>
<p style="font-size:13px">Or open this link: ${escapeHtml(link)}</p><p>The link works for 7 days.</p>`,
      escapeHtml(footer),
    ),
  };
}
