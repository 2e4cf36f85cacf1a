// A compare saved as one file: its runs read back in their order, each held to the rules of a trace file
// (a damaged run is named), plain and compact alike; anything but a bundle is refused with a reason.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeCompactTrace } from './compact-trace.ts';
import { parseDocument, tracesOf } from './sweep-io.ts';
import { BUNDLE_FORMAT, MAX_BUNDLE_TRACES, serializeBundle, traceBundle } from './trace-bundle.ts';
import { TraceError } from './trace-builder.ts';
import { parseTrace, serializeTrace } from './trace-io.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

const fixture = (name: string) => parseTrace(readFileSync(`e2e/fixtures/${name}`, 'utf8'));
// Pipeline first, then sequential: not the order the app would sort them in, so that order kept is order kept.
const RUNS = [fixture('incr-10-pipeline.json'), fixture('incr-10-sequential.json'), fixture('incr-10-pipeline-server-trace.json')];

describe('a bundle of traces', () => {
  it('reads back as the same runs in the same order, byte for byte', () => {
    const read = parseDocument(serializeBundle(RUNS));
    expect(read.kind).toBe('traces');
    expect(tracesOf(read).map(serializeTrace)).toEqual(RUNS.map(serializeTrace));
  });

  it('reads back from its compact form too', () => {
    const text = encodeCompactTrace(traceBundle(RUNS));
    expect(text.length).toBeLessThan(serializeBundle(RUNS).length);
    expect(tracesOf(parseDocument(text)).map(serializeTrace)).toEqual(RUNS.map(serializeTrace));
  });

  it('names the run that fails its checks', () => {
    const bad = JSON.parse(serializeBundle(RUNS));
    bad.traces[1].commands[0].repliedUs += 1;
    expect(thrownMessage(() => parseDocument(JSON.stringify(bad)), TraceError)).toMatch(/^Run 2 of 3 in the bundle: Invalid trace: /);
  });

  it('refuses another version, an empty bundle and more runs than a page compares', () => {
    expect(thrownMessage(() => parseDocument(JSON.stringify({ format: BUNDLE_FORMAT, version: 2, traces: RUNS })), TraceError))
      .toBe('Unsupported bundle version 2; this Pipescope reads version 1.');
    expect(thrownMessage(() => parseDocument(JSON.stringify({ format: BUNDLE_FORMAT, version: 1, traces: [] })), TraceError)).toMatch(/^Invalid bundle: traces: /);
    expect(thrownMessage(() => traceBundle(Array.from({ length: MAX_BUNDLE_TRACES + 1 }, () => RUNS[0]!)), TraceError))
      .toBe(`A bundle holds 1 to ${MAX_BUNDLE_TRACES} runs, not ${MAX_BUNDLE_TRACES + 1}.`);
  });

  it('leaves a single trace file a trace', () => {
    expect(parseDocument(serializeTrace(RUNS[0]!))).toEqual({ kind: 'trace', doc: RUNS[0] });
  });
});
