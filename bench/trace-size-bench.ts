// How big a recorded trace is as a file, in each form Pipescope can write it (server/app/cli/trace-files-node.ts):
// plain JSON, plain JSON gzipped, the compact encoding (trace/format/compact-trace.ts), and the compact encoding
// gzipped — the form served to the web (`npm run record -- … --out run.json.gz`). Reported in bytes per
// command of the run; the goal is a 100,000-command trace in at most 1 MB as served, 10 B/command.
// Two traces: the render bench's pipeline of PINGs (the easy case: its commands share one write, few reads
// and one reply text) and a sequential run of INCRs traced with MONITOR (the hard case: every command has its
// own write, read, reply and execution time). Sizes, not timings: the same trace gives like figures anywhere.
import { FORM_LABELS, formSizes, type FormSizes } from '../server/app/cli/trace-files-node.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import type { Finding } from './bench-report.ts';

/** Bytes per command as served (gzip of compact), at most. */
export const SERVED_BYTES_PER_COMMAND_GOAL = 10;

export function traceSizeBench(doc: TraceDocument, log: (line: string) => void): Finding[] {
  const sizes = formSizes(doc);
  const { n, mode, command, probes } = doc.run;
  const traced = probes.monitor ? ' with MONITOR' : '';
  const what = `recorded ${mode} of ${n.toLocaleString('en-US')} × ${command}${traced}`;
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  log(`  ${what}: ${(Object.keys(FORM_LABELS) as (keyof FormSizes)[]).map((form) => `${FORM_LABELS[form]} ${kib(sizes[form])}`).join(', ')}`);
  return (Object.keys(FORM_LABELS) as (keyof FormSizes)[]).map((form) => {
    const perCommand = sizes[form] / n;
    return {
      name: `trace file, ${mode} ${command}${traced}, ${FORM_LABELS[form]}, bytes per command`,
      unit: 'bytes',
      spread: { median: perCommand, min: perCommand, max: perCommand },
      goal: form === 'compactGzip' ? { bound: 'at most', value: SERVED_BYTES_PER_COMMAND_GOAL } : null,
      how: `${sizes[form].toLocaleString('en-US')} B ÷ ${n.toLocaleString('en-US')} commands, ${what} (memory sampled)` +
        (form === 'plainGzip' || form === 'compactGzip' ? ', node:zlib gzip level 9' : ''),
    } satisfies Finding;
  });
}
