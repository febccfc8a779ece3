import { oneLine } from "#shared/text.ts";
import { escapeHtml } from "../../infra/html.ts";
import { type MailContent, mailLayout } from "../../infra/mail-templates.ts";

/** The owner of an endpoint the server stopped sending to. */
export function disabledMail(firstName: string, url: string, reason: string, publicUrl: string): MailContent {
  const subject = "A webhook of yours was disabled";
  const lines = [
    `Hi ${oneLine(firstName)},`,
    `Penchain stopped sending events to ${oneLine(url)}: ${reason}.`,
    `Once it answers again, resume it in your settings: ${publicUrl}/settings/webhooks`,
  ];
  return {
    subject,
    text: `${lines.join("\n\n")}\n`,
    html: mailLayout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")),
  };
}
