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

/**
 * A queue's worker on every instance: `drain` runs until it has nothing left, when woken (a request queued work) and
 * every `everyMs` (work another instance queued or left); a wake during a run starts none beside it. `drain` is
 * told when the instance is stopping, so it can leave its work for another; close() waits for it.
 */
export function wakeable(
  drain: (stopping: () => boolean) => Promise<unknown>,
  options: { everyMs: number; onError: (error: unknown) => void },
) {
  let busy: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;
  const wake = () => {
    busy ??= drain(() => stopping)
      .then(() => undefined, options.onError)
      .finally(() => {
        busy = null;
      });
  };
  return {
    wake,
    /** Resolves once the work under way has ended (tests wait on it). */
    idle: async () => {
      while (busy) await busy;
    },
    start() {
      timer = setInterval(wake, options.everyMs);
      timer.unref();
    },
    async close() {
      stopping = true;
      clearInterval(timer);
      await busy;
    },
  };
}
