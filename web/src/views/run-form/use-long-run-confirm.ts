// Run, or ask first: a run that would take long (format/rtt-estimate.ts, from the last run's round trip)
// waits for the user's answer — run it anyway, run it with fewer commands, or not at all.
import { useCallback, useState } from 'react';
import type { RunSpec } from '../../../../trace/format/run-request.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { baseRttUs, longRunCheck, type LongRun } from '../../format/rtt-estimate.ts';
import type { RunStore } from '../../live/run-store.ts';

export interface LongRunConfirm {
  /** The run waiting for an answer, or null. */
  pending: { spec: RunSpec; longRun: LongRun } | null;
  /** Runs the spec, or holds it for an answer when it would take long. */
  onRun: (spec: RunSpec) => void;
  runAnyway: () => void;
  /** Runs the spec with n commands instead. */
  runWith: (n: number) => void;
  dismiss: () => void;
}

export function useLongRunConfirm(store: RunStore, lastTrace: TraceDocument | undefined): LongRunConfirm {
  const [pending, setPending] = useState<LongRunConfirm['pending']>(null);
  const onRun = useCallback((spec: RunSpec) => {
    const longRun = longRunCheck(spec, baseRttUs(lastTrace));
    if (longRun) setPending({ spec, longRun });
    else void store.run(spec);
  }, [store, lastTrace]);
  const answer = (spec: RunSpec | null) => {
    if (spec) void store.run(spec);
    setPending(null);
  };
  return {
    pending,
    onRun,
    runAnyway: () => answer(pending ? { ...pending.spec, confirmLongRun: true } : null), // the backend refuses a long run not confirmed
    runWith: (n) => answer(pending ? { ...pending.spec, n } : null),
    dismiss: () => answer(null),
  };
}
