// What other features and the post page may use of users.
export { FollowButton } from "./components/follow-button.tsx";
