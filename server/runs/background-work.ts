// What a run still does after it has answered: a cancelled or stopped run answers at once (its socket
// destroyed), and its clean-up (probes closed, keys deleted, lease released) carries on here, each
// piece bounded by BACKGROUND_TIMEOUT_MS. The next run waits for it (at most that long), so runs never
// overlap on Redis and a clean-up never blocks the runner forever: one that does not end in time is
// given up (its lease then runs out and the key janitor deletes what it left).

/** The most a piece of background clean-up is waited for (ms). */
export const BACKGROUND_TIMEOUT_MS = 30_000;

const pending = new Set<Promise<void>>();

/** Carries on with `work`; `onGiveUp` is called if it has not ended within `timeoutMs`. */
export function carryOn(work: Promise<unknown>, onGiveUp: () => void = () => {}, timeoutMs = BACKGROUND_TIMEOUT_MS): void {
  let timer: NodeJS.Timeout | undefined;
  const settled: Promise<void> = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onGiveUp();
      resolve();
    }, timeoutMs);
    work.then(() => resolve(), () => resolve());
  }).finally(() => {
    clearTimeout(timer);
    pending.delete(settled);
  });
  pending.add(settled);
}

/** Resolves once every piece carried on has ended or been given up, or once `signal` aborts. */
export async function backgroundSettled(signal?: AbortSignal): Promise<void> {
  const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
  while (pending.size > 0 && !signal?.aborted) await Promise.race([Promise.all(pending), aborted]);
}

/** How many pieces are carried on now (for tests). */
export function backgroundCount(): number {
  return pending.size;
}
