import { type NotificationTopic, TOPICS } from "#shared/schemas/notifications.ts";
import { excerpt, oneLine, plainText } from "#shared/text.ts";
import { escapeHtml } from "../../infra/html.ts";
import { type MailContent, mailLayout } from "../../infra/mail-templates.ts";

/**
 * Where a mail's own unsubscribe link goes in a text written once for many readers: the database puts each
 * reader's link in its place (fan-out.ts). It cannot come from what users type, which is stripped of control
 * characters first.
 */
export const UNSUBSCRIBE_PLACEHOLDER = "\u0001unsubscribe\u0001";

/** What users typed, as mail text: one line, no control characters (nothing typed can become the placeholder). */

/** The address that receives unsubscribe requests by mail: the sender's own. */
export const mailtoOf = (mailFrom: string) => /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;

/**
 * RFC 2369 and RFC 8058 headers: mail clients show an unsubscribe button that POSTs to the https link (one click,
 * no login); the mailto is for clients without it.
 */
export function unsubscribeHeaders(url: string, mailto: string): Record<string, string> {
  return {
    "List-Unsubscribe": `<${url}>, <mailto:${mailto}?subject=${encodeURIComponent(`unsubscribe ${url}`)}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
}

/** The footer of a mail sent because of a switch: what it is, and the link that turns it off. */
function footer(reason: string, url: string) {
  return {
    text: `\n--\nYou receive this because ${reason}. Turn these e-mails off (no login needed): ${url}\n`,
    html: `You receive this because ${escapeHtml(reason)}. <a href="${escapeHtml(url)}">Turn these e-mails off</a> (no login needed).`,
  };
}

const topicReason = (topic: NotificationTopic) =>
  `your Penchain settings send you e-mail about ${TOPICS[topic].label.toLowerCase()}`;

/**
 * A new post to a follower (or, `subscriber`, to an address subscribed by e-mail), written once for all of them
 * (the placeholder stands for each one's link).
 */
export function newPostMail(
  post: { title: string; description: string; url: string; author: string },
  reader: "follower" | "subscriber" = "follower",
): MailContent {
  const title = oneLine(post.title);
  const author = oneLine(post.author);
  const lead = excerpt(plainText(post.description), 300);
  const reason =
    reader === "follower" ? `you follow ${author} on Penchain` : `you subscribed to ${author}'s posts by e-mail`;
  const end = footer(reason, UNSUBSCRIBE_PLACEHOLDER);
  return {
    subject: `${author}: ${title}`,
    text: `${author} published a new post on Penchain.\n\n${title}\n\n${lead}\n\nRead it: ${post.url}\n${end.text}`,
    html: mailLayout(
      title,
      `<p>${escapeHtml(author)} published a new post.</p><p>${escapeHtml(lead)}</p>
<p><a href="${escapeHtml(post.url)}" style="background:#0d9488;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Read the post</a></p>`,
      // The placeholder is replaced by a link of [0-9a-z/:.-] only, so it needs no escaping of its own.
      `You receive this because ${escapeHtml(reason)}. <a href="${UNSUBSCRIBE_PLACEHOLDER}">Turn these e-mails off</a> (no login needed).`,
    ),
  };
}

/** One notification, mailed at once. */
export function notificationMail(
  firstName: string,
  what: string,
  link: string,
  topic: NotificationTopic,
  unsubscribeUrl: string,
): MailContent {
  const end = footer(topicReason(topic), unsubscribeUrl);
  return {
    subject: what,
    text: `Hi ${oneLine(firstName)},\n\n${what}.\n\n${link}\n${end.text}`,
    html: mailLayout(
      what,
      `<p>Hi ${escapeHtml(oneLine(firstName))},</p><p>${escapeHtml(what)}.</p><p><a href="${escapeHtml(link)}">Open it on Penchain</a></p>`,
      end.html,
    ),
  };
}

/** The day's notifications on the topics a user chose to read once a day. */
export function digestMail(
  firstName: string,
  items: { what: string; link: string }[],
  unsubscribeUrl: string,
): MailContent {
  const end = footer("you chose a daily digest of your Penchain notifications", unsubscribeUrl);
  const subject = `Your Penchain digest: ${items.length} notification${items.length === 1 ? "" : "s"}`;
  return {
    subject,
    text: `Hi ${oneLine(firstName)},\n\n${items.map((item) => `- ${item.what}\n  ${item.link}`).join("\n")}\n${end.text}`,
    html: mailLayout(
      subject,
      `<p>Hi ${escapeHtml(oneLine(firstName))},</p><ul>${items
        .map((item) => `<li><a href="${escapeHtml(item.link)}">${escapeHtml(item.what)}</a></li>`)
        .join("")}</ul>`,
      end.html,
    ),
  };
}
