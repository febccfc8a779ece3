// What other screens show of e-mail subscriptions: the form readers subscribe with, and the author's own count.
export { SubscribeByEmail } from "./components/subscribe-form.tsx";
export { SubscriberCount } from "./components/subscriber-count.tsx";
