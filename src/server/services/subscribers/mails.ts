import { oneLine } from "#shared/notification-text.ts";
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
