/** Lets `limit` takes through each second of the clock, and refuses the rest until the next one begins. */
export function perSecond(limit: number) {
  let second = 0;
  let used = 0;
  return {
    take(): boolean {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) {
        second = now;
        used = 0;
      }
      if (used >= limit) return false;
      used++;
      return true;
    },
  };
}
