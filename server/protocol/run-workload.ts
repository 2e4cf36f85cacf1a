// What a run sends, command by command, and which keys it creates: one place that knows the key
// layout, so the runner, the cleanup and the trace's keyPattern agree.
import type { CommandName, RunInfo } from '../../trace/format/trace-format.ts';

/** A failure planted on purpose (trace run.injectedError): INCR runs only. */
export type InjectedError = NonNullable<RunInfo['injectedError']>;
/** What a runtime-error key holds before t0: INCR on it fails with "value is not an integer". */
export const NOT_AN_INTEGER = 'not-an-integer';

export interface Workload {
  command: CommandName;
  /** Arguments of the i-th command. */
  argsFor(index: number): (string | Buffer)[];
  keyPattern: string;
  /** Commands run before t0 on the control connection (GET needs its value to exist). */
  setup: [string, ...(string | Buffer)[]][];
  /** Every key the run may have created, for deletion afterwards. */
  keys(n: number): Generator<string>;
}

export function makeValue(bytes: number): Buffer {
  const pattern = Buffer.from('pipescope-');
  const value = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) value[i] = pattern[i % pattern.length]!;
  return value;
}

/**
 * `injected` (INCR only): operation `operation` fails. Such runs use one counter per operation
 * (`<ns>counter:{i}`), so the keys after the failing one show whether they were still incremented.
 * runtime: that key holds NOT_AN_INTEGER (set before t0). queueing: that INCR is sent without its key.
 */
export function workloadFor(command: CommandName, namespace: string, valueBytes: number, injected: InjectedError | null = null): Workload {
  if (injected) {
    if (command !== 'INCR') throw new Error('An injected error needs INCR.');
    const key = (i: number) => `${namespace}counter:${i}`;
    const { operation, kind } = injected;
    return {
      command,
      argsFor: (i) => (i === operation && kind === 'queueing' ? [] : [key(i)]),
      keyPattern: `${namespace}counter:{i}`,
      setup: kind === 'runtime' ? [['SET', key(operation), NOT_AN_INTEGER]] : [],
      keys: function* (n) {
        for (let i = 0; i < n; i++) yield key(i);
        if (kind === 'runtime' && operation >= n) yield key(operation); // set up before t0 even if never reached
      },
    };
  }
  switch (command) {
    case 'PING':
      return { command, argsFor: () => [], keyPattern: '', setup: [], keys: function* () {} };
    case 'INCR': {
      const key = `${namespace}counter`;
      return { command, argsFor: () => [key], keyPattern: key, setup: [], keys: function* () { yield key; } };
    }
    case 'SET': {
      const value = makeValue(valueBytes);
      return {
        command,
        argsFor: (i) => [`${namespace}key:${i}`, value],
        keyPattern: `${namespace}key:{i}`,
        setup: [],
        keys: function* (n) {
          for (let i = 0; i < n; i++) yield `${namespace}key:${i}`;
        },
      };
    }
    case 'GET': {
      const key = `${namespace}value`;
      return { command, argsFor: () => [key], keyPattern: key, setup: [['SET', key, makeValue(valueBytes)]], keys: function* () { yield key; } };
    }
    case 'GET-COMPUTE-SET': {
      // One key, a chain of steps: each GET reads what the previous SET wrote (see computeNext).
      const key = `${namespace}value`;
      return { command, argsFor: () => [key], keyPattern: key, setup: [['SET', key, '0']], keys: function* () { yield key; } };
    }
  }
}

/** [from, to) index ranges of at most `size` commands covering 0..n: a run's pipelines. */
export function* chunks(n: number, size: number): Generator<[number, number]> {
  for (let from = 0; from < n; from += size) yield [from, Math.min(n, from + size)];
}

/**
 * The compute step of GET-COMPUTE-SET: the value written back for the value read (an integer as text).
 * Computed in doubles and written as the Lua script writes it (string.format('%.0f'), lua-scripts.ts):
 * every digit of the double ("1152921504606846976" after 60 steps, where String() would write
 * "1152921504606847000"), infinity as "inf", so a sequential run and an EVAL write the same text.
 */
export function computeNext(value: string | null): string {
  const read = value === null ? 0 : value === 'inf' ? Infinity : Number(value);
  const next = read * 2 + 1;
  return Number.isFinite(next) ? BigInt(Math.round(next)).toString() : 'inf';
}
