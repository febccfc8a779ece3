// What other features and the app's pages use of blocks and mutes: the profile's buttons, the post author's
// waiting comments.
export { useBlocking } from "./api/relations.ts";
export { RelationButtons } from "./components/relation-buttons.tsx";
export { WaitingComments } from "./components/waiting-comments.tsx";
