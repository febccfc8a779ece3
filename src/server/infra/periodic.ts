/**
 * A background job on every instance: `task` every `everyMs` (and once at start with `atStart`), its failures
 * reported and tried again next time; close() stops it and waits for a run under way.
 */
export function periodic(
  task: () => Promise<unknown>,
  options: { everyMs: number; atStart?: boolean; onError: (error: unknown) => void },
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = task().catch(options.onError);
  };
  return {
    start() {
      if (options.atStart) tick();
      timer = setInterval(tick, options.everyMs);
      timer.unref();
    },
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
