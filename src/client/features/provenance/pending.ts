import { atom } from "jotai";

/**
 * The post whose new revision its author is asked to sign, and the page they were sent to after saving (in memory:
 * skipping or leaving loses nothing, the post's page asks again).
 */
export const revisionToSignAtom = atom<{ postId: string; shownOn: string } | null>(null);
