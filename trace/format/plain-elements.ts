// A quick look at the big arrays of a trace (commands, writes, reads: 100,000 elements each in a big
// run) and of a run-events frame (its outcomes) before the schema sees them. Checking each element against its zod schema was most of
// an import's time; an element that is plainly valid (the schema's keys in the schema's order, each
// value of the right kind) is what the schema would return anyway, so it can be taken as it is.
// The check is stricter than the schema, never looser: whatever fails it goes through the schema,
// whose messages are the ones users see. TraceDocumentSchema stays the one definition of a trace.

type Plain = Record<string, unknown>;

const isMicros = (v: unknown): boolean => typeof v === 'number' && v >= 0 && Number.isFinite(v);
const isCount = (v: unknown): boolean => typeof v === 'number' && v >= 0 && Number.isInteger(v);
const isFiniteNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);
const isReplyValue = (v: unknown): boolean => v === null || typeof v === 'string' || isFiniteNumber(v);

interface Field {
  key: string;
  valid: (value: unknown) => boolean;
  optional?: boolean;
}

/** Own keys exactly these fields', in this order (optional ones may be left out), each value valid. */
function matches(value: unknown, fields: readonly Field[]): value is Plain {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  let next = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) return false;
    while (next < fields.length && fields[next]!.key !== key && fields[next]!.optional) next++;
    const field = fields[next];
    if (!field || field.key !== key || !field.valid((value as Plain)[key])) return false;
    next++;
  }
  for (; next < fields.length; next++) if (!fields[next]!.optional) return false;
  return true;
}

const COMMAND_TIMES: Field[] = [
  { key: 'index', valid: isCount },
  { key: 'sentUs', valid: isMicros },
  { key: 'toServerUs', valid: isMicros, optional: true },
  { key: 'serverUs', valid: isFiniteNumber, optional: true },
  { key: 'fromServerUs', valid: isMicros, optional: true },
  { key: 'repliedUs', valid: isMicros },
  // Cluster runs only (cluster-format.ts).
  { key: 'slot', valid: (v) => isCount(v) && (v as number) < 16384, optional: true },
  { key: 'node', valid: (v) => typeof v === 'string', optional: true },
  { key: 'connection', valid: isCount, optional: true },
];
const COMMAND_WITH_REPLY: Field[] = [...COMMAND_TIMES, { key: 'reply', valid: isReplyValue }];
const COMMAND_WITH_ERROR: Field[] = [...COMMAND_TIMES, { key: 'error', valid: (v) => typeof v === 'string' }];
const head: Field = { key: 'head', valid: (v) => typeof v === 'string', optional: true };
const connection: Field = { key: 'connection', valid: isCount, optional: true };
const WRITE: Field[] = [{ key: 'atUs', valid: isMicros }, { key: 'bytes', valid: isCount }, { key: 'firstCommand', valid: isCount }, { key: 'commands', valid: isCount }, head, connection];
const READ: Field[] = [{ key: 'atUs', valid: isMicros }, { key: 'bytes', valid: isCount }, { key: 'firstReply', valid: isCount }, { key: 'replies', valid: isCount }, head, connection];

export const isPlainCommand = (value: unknown): boolean =>
  matches(value, typeof value === 'object' && value !== null && 'error' in value ? COMMAND_WITH_ERROR : COMMAND_WITH_REPLY);
export const isPlainWrite = (value: unknown): boolean => matches(value, WRITE);
export const isPlainRead = (value: unknown): boolean => matches(value, READ);

/** A run-events frame's outcome: a reply value, or { e: message } for an error reply. */
export const isPlainWireOutcome = (value: unknown): boolean =>
  isReplyValue(value) || matches(value, [{ key: 'e', valid: (v) => typeof v === 'string' }]);

/** The document's commands, writes and reads, when every one of them is plainly valid; else null. */
export function plainElements(json: Plain): { commands: unknown[]; writes: unknown[]; reads: unknown[] } | null {
  const { commands, writes, reads } = json;
  if (!Array.isArray(commands) || !Array.isArray(writes) || !Array.isArray(reads)) return null;
  if (!commands.every(isPlainCommand) || !writes.every(isPlainWrite) || !reads.every(isPlainRead)) return null;
  return { commands, writes, reads };
}
