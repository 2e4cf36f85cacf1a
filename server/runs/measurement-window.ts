// When Pipescope must send Redis nothing of its own: from a run's first INFO snapshot to its last (its
// counts are deltas of everything Redis did meanwhile, MONITOR sees every command, and t0 to the last
// reply is the measurement itself). The health check's PING, a lease refresh (run-lease.ts) and the
// key janitor (key-janitor.ts) ask here first and wait, or skip, while a window is open. One process
// runs one run at a time (run-queue.ts), but a count keeps this right whatever calls it.
let open = 0;
let waiters: (() => void)[] = [];

/** Whether a run is between its INFO snapshots now. */
export function measuring(): boolean {
  return open > 0;
}

/** Opens a window; the returned function closes it (once, however often called). */
export function openMeasurementWindow(): () => void {
  open++;
  let closed = false;
  return () => {
    if (closed) return;
    closed = true;
    open--;
    if (open === 0) {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    }
  };
}

/** Resolves once no window is open (at once when none is). */
export function outsideMeasurement(): Promise<void> {
  return open === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
}
