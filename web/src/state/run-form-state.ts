// The run form as typed (strings, so a half-typed number is kept), the mode choices its menu offers, and
// its validation against the shared RunSpecSchema: the backend checks the same schema, so the messages
// shown inline are the ones the backend would give. modeRefusal says beforehand, for the menu, which
// modes the spec would refuse. The URL carries the form (url/run-link.ts), built on these types.
import { DEPENDENT_MODES, RunSpecSchema, UNTIL_CERTAIN, commandTakesValue, type ClusterCompare, type ClusterKeys, type ClusterSplit, type Engine, type RunSpec } from '../../../trace/format/run-request.ts';
import { RUN_MODES, type CommandName, type NEIGHBOR_COMMANDS, type RunMode } from '../../../trace/format/trace-format.ts';
import { multiKeyCommand } from '../../../trace/format/wire-layout.ts';

/**
 * One mode, or a comparison: 'both' (sequential vs one pipeline, the original choice), 'pipeline-vs-chunked',
 * 'all', or 'custom': the modes ticked one by one (RunFormState.modes).
 */
export const MODE_CHOICES = [
  'sequential', 'pipeline', 'chunked', 'multi', 'eval', 'evalsha', 'multikey', 'auto', 'both', 'pipeline-vs-chunked', 'all', 'custom',
] as const;
export type ModeChoice = (typeof MODE_CHOICES)[number];

/** The runs a choice asks for, in the order they run and are shown ('custom': none here, see chosenModes). */
export const MODES_OF: Record<ModeChoice, readonly RunMode[]> = {
  sequential: ['sequential'],
  pipeline: ['pipeline'],
  chunked: ['chunked'],
  multi: ['multi'],
  eval: ['eval'],
  evalsha: ['evalsha'],
  multikey: ['multikey'],
  auto: ['auto'],
  both: ['sequential', 'pipeline'],
  'pipeline-vs-chunked': ['pipeline', 'chunked'],
  all: ['sequential', 'pipeline', 'chunked'],
  custom: [],
};

/** The modes a choice runs: the fixed list, or for 'custom' the ticked ones in RUN_MODES order. */
export function chosenModes(mode: ModeChoice, custom: readonly RunMode[]): RunMode[] {
  return mode === 'custom' ? RUN_MODES.filter((m) => custom.includes(m)) : [...MODES_OF[mode]];
}

/** Whether a choice includes a chunked run, which needs a chunk size. */
export const hasChunks = (mode: ModeChoice, custom: readonly RunMode[] = []): boolean => chosenModes(mode, custom).includes('chunked');

/** A planted error's kind: a runtime error reply, or one Redis refuses while queueing a transaction. */
export const ERROR_KINDS = ['runtime', 'queueing'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];
export type NeighborCommand = (typeof NEIGHBOR_COMMANDS)[number];

export interface RunFormState {
  command: CommandName;
  n: string;
  valueBytes: string;
  mode: ModeChoice;
  /** Commands per pipeline, sent only when the mode has a chunked run. */
  chunk: string;
  /** Round-trip time added by the backend's TCP delay proxy, and its ± jitter, in ms ('0' = direct). */
  rttMs: string;
  jitterMs: string;
  /** The Redis-side probes, each its own choice: MONITOR (cheap) and strace (slows Redis several-fold). Off by default. */
  monitor: boolean;
  strace: boolean;
  /** Skip the warm-up before t0 (a cold connection). */
  cold: boolean;
  /** Rounds, as typed (1–40), or "until-certain" (each mode once per round, the order alternating). */
  repeats: string;
  engine: Engine;
  /** mode 'custom': the modes ticked. */
  modes: RunMode[];
  /** Chunked runs: ms between chunks, as typed. */
  chunkPauseMs: string;
  /** "Plant an error": on or off, at which operation (as typed), and its kind. */
  plantError: boolean;
  errorAt: string;
  errorKind: ErrorKind;
  /** A neighbour client: its rate per second as typed ('0': none) and its command; the held-connection probe. */
  neighborRate: string;
  neighborCommand: NeighborCommand;
  heldConnection: boolean;
  /**
   * Sample memory, in a memory repeat after the timed runs. Unticked, the request decides
   * (memorySampled: runs that can move memory are sampled anyway); ticked, every run is.
   */
  memory: boolean;
  /** A Redis Cluster only (offered under More options there): the keys spread or under one hash tag; the raw pipeline's nodes at once or in turn. */
  clusterKeys: ClusterKeys;
  clusterSplit: ClusterSplit;
  /** A Redis Cluster only: both keys variants or both split variants side by side in one request (absent: neither). */
  clusterCompare?: ClusterCompare;
  /** Pipescope's private cluster only: move a slot of the run's keys during the run (absent: off). */
  reshard?: boolean;
}

export type FormErrors = Partial<
  Record<(typeof FIELDS)[number] | 'form', string>
>;

export type FormResult = { ok: true; spec: RunSpec } | { ok: false; errors: FormErrors };

const FIELDS = [
  'command', 'n', 'valueBytes', 'chunk', 'rttMs', 'jitterMs', 'repeats', 'modes', 'engine', 'monitor', 'strace', 'cold', 'chunkPauseMs', 'errorAt',
  'errorKind', 'neighborRate', 'neighborCommand', 'heldConnection', 'memory', 'clusterKeys', 'clusterSplit', 'clusterCompare', 'reshard',
] as const;

export function modesOf(mode: ModeChoice, custom: readonly RunMode[] = []): RunSpec['modes'] {
  return chosenModes(mode, custom);
}

/** The runs the form asks for. */
export const formModes = (form: Pick<RunFormState, 'mode' | 'modes'>): RunMode[] => chosenModes(form.mode, form.modes);

/**
 * Why RunSpecSchema would refuse `mode` with this command and engine, in a few words for the menu, or null.
 * The same three rules as the schema's refinements (multikey, GET-COMPUTE-SET, auto); the schema's own
 * message is still what the form shows once such a run is asked for.
 */
export function modeRefusal(mode: RunMode, command: CommandName, engine: Engine): string | null {
  if (mode === 'multikey' && multiKeyCommand(command) === null) return 'only for SET (one MSET) or GET (one MGET)';
  if (command === 'GET-COMPUTE-SET' && !DEPENDENT_MODES.includes(mode)) return 'GET-COMPUTE-SET needs each reply before its SET: sequential or eval only';
  if (mode === 'auto' && engine === 'raw') return 'the raw socket has no client library to batch: choose ioredis or node-redis';
  return null;
}

/** A typed number: blank or non-numeric text becomes NaN so the schema reports it. */
function numberOf(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text.trim());
}

export function validateRunForm(form: RunFormState): FormResult {
  const takesValue = commandTakesValue(form.command);
  const parsed = RunSpecSchema.safeParse({
    command: form.command,
    n: numberOf(form.n),
    valueBytes: takesValue ? numberOf(form.valueBytes) : 0,
    ...(hasChunks(form.mode, form.modes) ? { chunk: numberOf(form.chunk), chunkPauseMs: numberOf(form.chunkPauseMs) } : {}),
    rttMs: numberOf(form.rttMs),
    jitterMs: numberOf(form.jitterMs),
    engine: form.engine,
    monitor: form.monitor,
    strace: form.strace,
    cold: form.cold,
    repeats: form.repeats.trim() === UNTIL_CERTAIN ? UNTIL_CERTAIN : numberOf(form.repeats),
    modes: formModes(form),
    ...(form.plantError ? { errorAt: numberOf(form.errorAt), errorKind: form.errorKind } : {}),
    neighborRate: numberOf(form.neighborRate),
    neighborCommand: form.neighborCommand,
    heldConnection: form.heldConnection,
    ...(form.memory ? { memory: true } : {}),
    clusterKeys: form.clusterKeys,
    clusterSplit: form.clusterSplit,
    ...(form.clusterCompare ? { clusterCompare: form.clusterCompare } : {}),
    ...(form.reshard ? { reshard: true } : {}),
  });
  if (parsed.success) return { ok: true, spec: parsed.data };
  const errors: FormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    const key = FIELDS.find((f) => f === field) ?? 'form';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}
