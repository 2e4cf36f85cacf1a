// The text of the i-th command as the runner sent it, rebuilt from the trace's run info:
// keyPattern with `{i}` replaced by the index (empty pattern: a command without a key, PING).
import type { RunInfo } from '../../../trace/trace-format.ts';
import { formatBytes } from './number-format.ts';

export function commandKey(run: Pick<RunInfo, 'keyPattern'>, index: number): string {
  return run.keyPattern.replaceAll('{i}', String(index));
}

/** e.g. "INCR pipescope:abc:counter", "SET pipescope:abc:key:3 <16 B value>", "PING". */
export function commandText(run: Pick<RunInfo, 'command' | 'keyPattern' | 'valueBytes'>, index: number): string {
  const key = commandKey(run, index);
  const parts: string[] = [run.command];
  if (key) parts.push(key);
  if (run.command === 'SET') parts.push(`<${formatBytes(run.valueBytes)} value>`);
  return parts.join(' ');
}
