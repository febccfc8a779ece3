import { oneLine } from "#shared/notification-text.ts";
import { escapeHtml } from "../../infra/html.ts";
import { type MailContent, mailLayout } from "../../infra/mail-templates.ts";

/** Told once to a reader an import brought: where their subscription went, and how to leave it. */
export function subscriptionMovedMail(authorName: string, siteUrl: string, unsubscribeUrl: string): MailContent {
  const author = oneLine(authorName);
  const subject = `${author} has moved to Penchain`;
  const lead = `You subscribed to ${author}'s writing by e-mail. ${author} now publishes on Penchain (${siteUrl}), and brought their subscribers along: you will get their new posts from us.`;
  const leave = "Not what you want? Unsubscribe with one click, no account needed:";
  return {
    subject,
    text: `${lead}\n\n${leave} ${unsubscribeUrl}\n\nThis is the only mail about the move.\n`,
    html: mailLayout(
      subject,
      `<p>${escapeHtml(lead)}</p><p>${escapeHtml(leave)} <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`,
      "This is the only mail about the move.",
    ),
  };
}
