// Encodes commands the way the raw engine sends them: RESP arrays of bulk strings, except PING, which
// goes as the inline command "PING\r\n" (the docs' netcat example). A whole run is encoded ahead of its
// t0 into one buffer, so that what the raw engine measures is the protocol, not the encoding.
import type { Workload } from './run-workload.ts';

export const INLINE_PING = Buffer.from('PING\r\n');

/** One command as a RESP array of bulk strings. */
export function encode(args: (string | Buffer)[]): Buffer {
  const target = Buffer.allocUnsafe(encodedLength(args));
  writeCommand(target, 0, args);
  return target;
}

/** n commands in one buffer; command i is bytes[offsets[i], offsets[i + 1]). */
export interface EncodedBatch {
  bytes: Buffer;
  offsets: Float64Array;
}

export function encodeBatch(workload: Workload, n: number): EncodedBatch {
  const steps = encodeBatchInSlices(workload, n, Infinity);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * encodeBatch, pausing (yield) after each `slice` commands of each pass, so a caller can free the
 * event loop in between: a million SETs take about a second to encode.
 */
export function* encodeBatchInSlices(workload: Workload, n: number, slice: number): Generator<void, EncodedBatch> {
  const offsets = new Float64Array(n + 1);
  if (workload.command === 'PING') {
    const bytes = Buffer.allocUnsafe(INLINE_PING.length * n);
    for (let i = 0; i < n; i++) {
      INLINE_PING.copy(bytes, i * INLINE_PING.length);
      offsets[i + 1] = (i + 1) * INLINE_PING.length;
    }
    return { bytes, offsets };
  }
  // Two passes over the arguments: sizes first, so the batch is one allocation, written in place.
  const commandArgs = (i: number) => [workload.command, ...workload.argsFor(i)];
  for (let i = 0; i < n; i++) {
    offsets[i + 1] = offsets[i]! + encodedLength(commandArgs(i));
    if ((i + 1) % slice === 0) yield;
  }
  const bytes = Buffer.allocUnsafe(offsets[n]!);
  for (let i = 0; i < n; i++) {
    writeCommand(bytes, offsets[i]!, commandArgs(i));
    if ((i + 1) % slice === 0) yield;
  }
  return { bytes, offsets };
}

function encodedLength(args: (string | Buffer)[]): number {
  let length = `*${args.length}\r\n`.length;
  for (const arg of args) {
    const size = typeof arg === 'string' ? Buffer.byteLength(arg) : arg.length;
    length += `$${size}\r\n`.length + size + 2;
  }
  return length;
}

function writeCommand(target: Buffer, offset: number, args: (string | Buffer)[]): number {
  let at = offset + target.write(`*${args.length}\r\n`, offset, 'latin1');
  for (const arg of args) {
    const size = typeof arg === 'string' ? Buffer.byteLength(arg) : arg.length;
    at += target.write(`$${size}\r\n`, at, 'latin1');
    at += typeof arg === 'string' ? target.write(arg, at, 'utf8') : arg.copy(target, at);
    at += target.write('\r\n', at, 'latin1');
  }
  return at;
}
