/**
 * A confirmed payment not yet used by a post, per user, so a reload or a failed submit never loses what was paid.
 * Plain storage: the Create Blog form forgets it without loading wallet code.
 */
const key = (userId: string) => `penchain.unusedPayment.${userId}`;

export const unusedPayment = {
  get: (userId: string) => localStorage.getItem(key(userId)),
  remember: (userId: string, hash: string) => localStorage.setItem(key(userId), hash),
  forget(userId: string, hash: string | undefined) {
    if (hash && this.get(userId)?.toLowerCase() === hash.toLowerCase()) localStorage.removeItem(key(userId));
  },
};
