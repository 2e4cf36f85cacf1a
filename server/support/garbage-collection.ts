// Full garbage collections on purpose, at two moments: before t0 of a sampled run (so the client's
// first memory sample is what is really alive, not an earlier run's garbage), and once a big run is
// over and nothing else runs (so the backend gives its memory back). V8 collects only when it needs
// room to allocate: after a pipeline of a million SETs, an idle backend otherwise keeps its 2 GB.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let fullGc: (() => void) | undefined;

/** One full, blocking collection. (V8 hands out gc() only to code compiled after --expose-gc is set, hence the fresh context.) */
export function collectGarbage(): void {
  if (!fullGc) {
    setFlagsFromString('--expose-gc');
    fullGc = runInNewContext('gc') as () => void;
  }
  fullGc();
}

/** Quiet time after a run before memory is given back, and between the two collections. */
export const RELEASE_DELAY_MS = 500;

let timer: NodeJS.Timeout | undefined;

/**
 * Gives memory back once the process is idle: RELEASE_DELAY_MS after the last call, if `idle()` (no
 * run is being measured: a collection would land in its times), a full collection; then another
 * RELEASE_DELAY_MS later, because buffers outside the JS heap (a pipeline's encoded bytes) are only
 * freed after the first one has found them dead.
 */
export function releaseMemoryWhenIdle(idle: () => boolean): void {
  clearTimeout(timer);
  let collections = 0;
  const collect = () => {
    if (!idle()) return; // the run under way asks again when it ends
    collectGarbage();
    if (++collections < 2) schedule();
  };
  const schedule = () => {
    timer = setTimeout(collect, RELEASE_DELAY_MS);
    timer.unref();
  };
  schedule();
}
