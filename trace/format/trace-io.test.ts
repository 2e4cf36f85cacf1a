import { describe, expect, it } from 'vitest';
import { TraceBuilder, TraceError } from './trace-builder.ts';
import type { TraceDocument } from './trace-format.ts';
import { parseTrace, serializeTrace, verifyTrace } from './trace-io.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

/** A sequential INCR run of 3 with one error reply; times are deliberately not round. */
function sampleTrace(): TraceDocument {
  const b = new TraceBuilder({
    run: {
      id: 'm3x9k2-0a1b2c3d', mode: 'sequential', command: 'INCR', n: 3, operations: 3, valueBytes: 0,
      startedAt: '2025-03-14T15:09:26.535Z', keyPattern: 'pipescope:m3x9k2-0a1b2c3d:counter',
      warmup: { commands: 3, durationUs: 412 }, injectedError: null, repeat: 1,
      probes: { monitor: false, strace: false, memory: false, kernelTcp: true, heldConnection: false },
    },
    redis: { version: '7.2.4', embedded: true, address: '127.0.0.1:40213' },
    rtt: { addedMs: 2.5, jitterMs: 0.5, measuredMinUs: 2541, measuredMedianUs: 2610.5, samples: 5 },
    recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.20.2' },
  });
  b.addBatch({
    writes: [{ atUs: 0, bytes: 46, commands: 1 }, { atUs: 131.5, bytes: 46, commands: 1 }, { atUs: 250, bytes: 46, commands: 1 }],
    reads: [{ atUs: 87, bytes: 4, replies: 1 }, { atUs: 199, bytes: 4, replies: 1 }, { atUs: 318, bytes: 50, replies: 1 }],
    outcomes: [{ reply: 1 }, { reply: 2 }, { error: 'ERR increment or decrement would overflow' }],
  });
  return b.finish({ reads: 3, writes: 3, execUs: 3, source: 'redis-info', exclusive: true }, {
    doneUs: 331,
    kernelTcp: { source: 'kernel (ss)', segmentsOut: 4, segmentsIn: 4, dataSegmentsOut: 3, dataSegmentsIn: 3, bytesAcked: 138, bytesReceived: 58, retransmits: 0 },
  });
}

/** The sample trace as JSON, edited by `edit`. */
function edited(edit: (doc: Record<string, any>) => void): string { // eslint-disable-line @typescript-eslint/no-explicit-any
  const doc = JSON.parse(serializeTrace(sampleTrace()));
  edit(doc);
  return JSON.stringify(doc);
}

const traceErrorOf = (action: () => unknown): string => thrownMessage(action, TraceError);

/** The sample as a version-3 recorder wrote it: no incomplete mark (version 4 added it). */
function versionThree(): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const doc = JSON.parse(serializeTrace(sampleTrace()));
  doc.version = 3;
  delete doc.incomplete;
  return doc;
}

/** The sample as a version-2 recorder wrote it: none of the fields versions 3 and 4 added. */
function versionTwo(): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const doc = versionThree();
  doc.version = 2;
  delete doc.run.operations;
  delete doc.run.injectedError;
  delete doc.run.probes.heldConnection;
  delete doc.keysAfter;
  delete doc.neighbor;
  delete doc.heldConnection;
  return doc;
}

/** The sample as a version-1 recorder wrote it: none of the fields versions 2 and 3 added. */
function versionOne(): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const doc = versionTwo();
  doc.version = 1;
  delete doc.run.warmup;
  delete doc.run.repeat;
  delete doc.run.probes;
  delete doc.totals.doneUs;
  delete doc.kernelTcp;
  return doc;
}

describe('version 3 files', () => {
  it('open as version 4, a whole run (incomplete: null), and export as the version-4 sample', () => {
    const doc = parseTrace(JSON.stringify(versionThree()));
    expect(doc.version).toBe(4);
    expect(doc.incomplete).toBeNull();
    expect(serializeTrace(doc)).toBe(serializeTrace(sampleTrace()));
  });

  it('ignore an incomplete key in a version-3 file (version 3 had none): the migration sets it', () => {
    const v3 = versionThree();
    v3.incomplete = { reason: 'cancelled', sent: 1, replied: 1, omitted: [] };
    expect(parseTrace(JSON.stringify(v3)).incomplete).toBeNull();
  });
});

describe('version 2 files', () => {
  it('open as version 4: operations = n, nothing planted, no neighbour, nothing read back', () => {
    const doc = parseTrace(JSON.stringify(versionTwo()));
    expect(doc.version).toBe(4);
    expect(doc.run).toMatchObject({ n: 3, operations: 3, injectedError: null, warmup: { commands: 3, durationUs: 412 }, repeat: 1 });
    expect(doc.run.probes.heldConnection).toBe(false);
    expect([doc.keysAfter, doc.neighbor, doc.heldConnection]).toEqual([null, null, null]);
    expect(serializeTrace(doc)).toBe(serializeTrace(sampleTrace()));
  });
});

describe('version 1 files', () => {
  it('open as version 4, each new field saying what a version-1 recorder did', () => {
    const doc = parseTrace(JSON.stringify(versionOne()));
    expect(doc.version).toBe(4);
    expect(doc.incomplete).toBeNull();
    expect(doc.run).toMatchObject({ warmup: null, injectedError: null, repeat: 0, probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false } });
    expect(doc.totals).toEqual({ durationUs: 318, opsPerSec: 3e6 / 318, doneUs: 318 });
    expect(doc.kernelTcp).toBeNull();
    expect(doc.commands).toEqual(sampleTrace().commands);
  });

  it('say MONITOR and strace were on exactly when the file has a server trace', () => {
    const v1 = versionOne();
    v1.serverTrace = { clock: { offsetUs: 0, uncertaintyUs: 10, samples: 8 }, others: [], syscalls: null };
    v1.commands.forEach((c: Record<string, unknown>, i: number) => {
      const { repliedUs, reply, error, ...rest } = c;
      Object.keys(c).forEach((key) => delete c[key]);
      Object.assign(c, rest, { serverUs: [50, 160, 280][i] }, { repliedUs }, reply === undefined ? { error } : { reply });
    });
    const doc = parseTrace(JSON.stringify(v1));
    expect(doc.run.probes).toEqual({ monitor: true, strace: true, memory: false, kernelTcp: false, heldConnection: false });
    expect(doc.commands.map((c) => c.serverUs)).toEqual([50, 160, 280]);
  });

  it('export as version 4, which round-trips byte for byte', () => {
    const once = serializeTrace(parseTrace(JSON.stringify(versionOne())));
    expect(once.startsWith('{"format":"pipescope-trace","version":4,')).toBe(true);
    expect(serializeTrace(parseTrace(once))).toBe(once);
  });
});

describe('version 2 fields', () => {
  it('refuse a client call that returned before its last reply arrived', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.totals.doneUs = 317; })))).toBe(
      "The client's call returned at 317 µs, before its last reply arrived at 318 µs.",
    );
  });

  it('keep the warm-up, repeat, probes and kernel TCP figures through import', () => {
    const doc = parseTrace(serializeTrace(sampleTrace()));
    expect(doc.run).toMatchObject({ warmup: { commands: 3, durationUs: 412 }, injectedError: null, repeat: 1 });
    expect(doc.kernelTcp).toMatchObject({ source: 'kernel (ss)', segmentsOut: 4, dataSegmentsOut: 3 });
  });

  it('refuse kernel TCP figures without their numbers or reason', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.kernelTcp = { source: 'kernel (ss)' }; })))).toMatch(/^Invalid trace: kernelTcp/);
  });
});

describe('export and import', () => {
  it('export → import → export is byte-identical', () => {
    const text = serializeTrace(sampleTrace());
    expect(serializeTrace(parseTrace(text))).toBe(text);
  });

  it('import gives back the same document', () => {
    const doc = sampleTrace();
    expect(parseTrace(serializeTrace(doc))).toEqual(doc);
  });

  it('the exported text is compact JSON starting with format and version', () => {
    expect(serializeTrace(sampleTrace()).startsWith('{"format":"pipescope-trace","version":4,"run":{')).toBe(true);
  });

  it('verifyTrace accepts an already-parsed object', () => {
    const doc = sampleTrace();
    expect(verifyTrace(JSON.parse(serializeTrace(doc)))).toEqual(doc);
  });
});

describe('parseTrace rejects', () => {
  it.each([
    ['totals', (doc: Record<string, any>) => (doc['totals'].opsPerSec *= 2)], // eslint-disable-line @typescript-eslint/no-explicit-any
    ['counts', (doc: Record<string, any>) => (doc['counts'].client.writes = 1)], // eslint-disable-line @typescript-eslint/no-explicit-any
    ['writes', (doc: Record<string, any>) => (doc['writes'][1].firstCommand = 0)], // eslint-disable-line @typescript-eslint/no-explicit-any
    ['proxy', (doc: Record<string, any>) => (doc['proxy'] = { toServer: [], fromServer: [] })], // eslint-disable-line @typescript-eslint/no-explicit-any
  ])('a file whose %s disagree with its socket events', (key, edit) => {
    expect(traceErrorOf(() => parseTrace(edited(edit)))).toBe(`Invalid trace: "${key}" does not match what its socket events add up to.`);
  });

  it('text that is not JSON, quoting the parser', () => {
    expect(traceErrorOf(() => parseTrace('{"format": "pipescope-trace",'))).toMatch(
      /^Not a trace: the file is not valid JSON \(.+\)\.$/,
    );
  });

  it.each([
    ['another format', '{"format":"har","version":1}'],
    ['no format', '{"version":1}'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a string', '"pipescope-trace"'],
  ])('JSON that is not a trace: %s', (_name, text) => {
    expect(traceErrorOf(() => parseTrace(text))).toBe('Not a trace: expected "format": "pipescope-trace".');
  });

  it('an unsupported version, naming it', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.version = 5; })))).toBe(
      'Unsupported trace version 5; this Pipescope reads versions 1 to 4.',
    );
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.version = '1'; })))).toBe(
      'Unsupported trace version "1"; this Pipescope reads versions 1 to 4.',
    );
  });

  it('a missing version', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { delete d.version; })))).toBe(
      'Unsupported trace version undefined; this Pipescope reads versions 1 to 4.',
    );
  });

  it('schema violations, naming the path', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.run.n = 0; })))).toBe(
      'Invalid trace: run.n: Too small: expected number to be >0',
    );
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.commands[1].sentUs = -5; })))).toBe(
      'Invalid trace: commands.1.sentUs: Too small: expected number to be >=0',
    );
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.run.mode = 'burst'; })))).toBe(
      'Invalid trace: run.mode: Invalid option: expected one of "sequential"|"pipeline"|"chunked"|"multi"|"eval"|"evalsha"|"multikey"|"auto"',
    );
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.counts.client.source = 'guess'; })))).toBe(
      'Invalid trace: counts.client.source: Invalid input: expected "client-socket"',
    );
  });

  it('at most three issues at once', () => {
    const message = traceErrorOf(() => parseTrace(edited((d) => {
      d.run.startedAt = 'yesterday';
      d.writes[0].bytes = 1.5;
      d.counts.server.source = 'x';
      d.totals.durationUs = -1;
    })));
    expect(message).toBe(
      'Invalid trace: run.startedAt: Invalid ISO datetime; writes.0.bytes: Invalid input: expected int, received number; ' +
        'counts.server.source: Invalid input: expected "redis-info"',
    );
  });

  it('a hand-edited command time that its write and read contradict', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.commands[1].sentUs = 140; })))).toBe(
      "Invalid trace: command 1's times do not match the writes and reads that carried it.",
    );
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.commands[2].repliedUs = 300; })))).toBe(
      "Invalid trace: command 2's times do not match the writes and reads that carried it.",
    );
  });

  it('commands listed out of order', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.commands.reverse(); })))).toBe(
      'Invalid trace: commands must be listed in order; found index 2 at position 0.',
    );
  });

  it('commands out of order even when their times agree (a pipeline: same write, same read)', () => {
    const header = sampleTrace();
    const b = new TraceBuilder({ ...header, run: { ...header.run, mode: 'pipeline' } });
    b.addBatch({
      writes: [{ atUs: 0, bytes: 138, commands: 3 }],
      reads: [{ atUs: 90, bytes: 58, replies: 3 }],
      outcomes: [{ reply: 1 }, { reply: 2 }, { reply: 3 }],
    });
    const doc = b.finish({ reads: 1, writes: 1, execUs: 2, source: 'redis-info', exclusive: true });
    const swapped = { ...doc, commands: [doc.commands[1], doc.commands[0], doc.commands[2]] };
    expect(traceErrorOf(() => parseTrace(JSON.stringify(swapped)))).toBe(
      'Invalid trace: commands must be listed in order; found index 1 at position 0.',
    );
  });

  it('a duplicated index', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.commands[2].index = 1; })))).toBe(
      'Invalid trace: commands must be listed in order; found index 1 at position 2.',
    );
  });

  it('run.n that does not match the commands listed', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.run.n = 4; })))).toBe(
      'Invalid trace: run.n is 4 but 3 commands are listed.',
    );
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.commands.pop(); })))).toBe(
      'Invalid trace: run.n is 3 but 2 commands are listed.',
    );
  });

  it('socket events the builder refuses (a read before the write it answers)', () => {
    expect(traceErrorOf(() => parseTrace(edited((d) => { d.reads[0].atUs = 0; d.writes[0].atUs = 10; d.commands[0].sentUs = 10; d.commands[0].repliedUs = 0; })))).toBe(
      'Reply 0 arrived at 0 µs, before its request was written at 10 µs.',
    );
  });
});

describe('chunked runs and memory samples', () => {
  const memory = {
    intervalMs: 10,
    server: { source: 'redis-client-list+info-memory' as const, samples: [{ atUs: 5, qbuf: 0, omem: 0, totMem: 22_000, usedMemory: 1_000_000 }] },
    client: { source: 'node-process-memory' as const, samples: [{ atUs: 0, rss: 80e6, heapUsed: 12e6, external: 2e6 }] },
  };

  function chunkedTrace(): TraceDocument {
    const header = sampleTrace();
    const b = new TraceBuilder({ ...header, run: { ...header.run, mode: 'chunked', chunk: 2 } });
    b.addBatch({
      writes: [{ atUs: 0, bytes: 92, commands: 2 }, { atUs: 150, bytes: 46, commands: 1 }],
      reads: [{ atUs: 90, bytes: 8, replies: 2 }, { atUs: 240, bytes: 4, replies: 1 }],
      outcomes: [{ reply: 1 }, { reply: 2 }, { reply: 3 }],
    });
    return b.finish(header.counts.server, { memory });
  }

  it('round-trip byte-identical, chunk size and samples included', () => {
    const text = serializeTrace(chunkedTrace());
    expect(parseTrace(text)).toMatchObject({ run: { mode: 'chunked', chunk: 2 }, memory });
    expect(serializeTrace(parseTrace(text))).toBe(text);
  });

  it('a trace from before memory sampling reads as memory: null', () => {
    expect(parseTrace(edited((doc) => delete doc['memory'])).memory).toBeNull();
  });

  it('refuses a chunked run without its chunk size, and a chunk size on another mode', () => {
    expect(traceErrorOf(() => parseTrace(edited((doc) => (doc['run'].mode = 'chunked'))))).toBe('A chunked run must say its chunk size (run.chunk).');
    expect(traceErrorOf(() => parseTrace(edited((doc) => (doc['run'].chunk = 10))))).toBe('A sequential run has no chunk size; run.chunk is for chunked runs.');
  });

  it('refuses a memory sample with a negative size, naming it', () => {
    const text = serializeTrace(chunkedTrace()).replace('"omem":0', '"omem":-1');
    expect(traceErrorOf(() => parseTrace(text))).toBe('Invalid trace: memory.server.samples.0.omem: Too small: expected number to be >=0');
  });
});

describe('incomplete traces (v4)', () => {
  /** The sample's run cancelled after its second reply, its third command written. */
  function cancelled(): TraceDocument {
    const full = sampleTrace();
    const b = new TraceBuilder(full);
    b.addBatch({ writes: full.writes, reads: full.reads.slice(0, 2), outcomes: full.commands.slice(0, 2) });
    return b.partial({ reason: 'cancelled', omitted: ['redis-info', 'kernel-tcp'] });
  }

  it('export → import → export keeps the mark, byte for byte', () => {
    const text = serializeTrace(cancelled());
    const doc = parseTrace(text);
    expect(doc.incomplete).toEqual({ reason: 'cancelled', sent: 3, replied: 2, omitted: ['redis-info', 'kernel-tcp'] });
    expect(doc.commands).toHaveLength(2);
    expect(serializeTrace(doc)).toBe(text);
  });

  it('refuse a mark that disagrees with the socket events', () => {
    const text = serializeTrace(cancelled()).replace('"replied":2', '"replied":3');
    expect(traceErrorOf(() => parseTrace(text))).toBe('Invalid trace: "incomplete" does not match what its socket events add up to.');
  });

  it('refuse more commands than replies arrived', () => {
    const doc = JSON.parse(serializeTrace(cancelled()));
    doc.reads = doc.reads.slice(0, 1);
    doc.counts.client.reads = 1;
    doc.counts.client.bytesIn = 4;
    expect(traceErrorOf(() => parseTrace(JSON.stringify(doc)))).toBe('Invalid trace: 2 commands are listed, but replies arrived for 1.');
  });

  it('refuse a whole run with missing commands, as before', () => {
    const doc = JSON.parse(serializeTrace(cancelled()));
    doc.incomplete = null;
    expect(traceErrorOf(() => parseTrace(JSON.stringify(doc)))).toBe('Invalid trace: run.n is 3 but 2 commands are listed.');
  });
});
