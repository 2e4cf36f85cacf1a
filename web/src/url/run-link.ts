// The run form's keys in the URL (#command=INCR&n=10&valueBytes=16&mode=both&scale=shared, plus &chunk=10000
// when the mode has chunks or it was changed, and &monitor=1, &strace=1, &cold=1, &repeats=K, &engine=raw,
// &rttMs, &jitterMs when they are not the defaults), so a presenter can send a link that opens the same
// form. mode=custom&modes=multi,eval names the modes picked one by one; chunkPauseMs, errorAt and errorKind
// (a planted error; no errorAt: none), neighborRate, neighborCommand, heldConnection and memory=1 (sample
// memory in a memory repeat, also for a run too small to be sampled by itself) the rest. Links made
// before MONITOR and strace were apart say &serverTrace=1, which still means both. The diagrams' time scale
// (scale=) travels with them, and so does whether the form's "More options" are unfolded (options=1), and
// the Redis picked on a backend that offers its private single Redis and cluster (target=single|cluster;
// absent: the backend's own). On a Redis Cluster: keys=hashtag (every key of the run under one {hash tag})
// and split=serial (the raw pipeline's nodes one after another), each only when not the default, and
// compare=keys|split (both variants side by side in one request).
// Parsing is tolerant (link-fields.ts): any missing or bad value falls back to
// its default. The form and its choices are state/run-form-state.ts's; this is how a link spells them.
import { z } from 'zod';
import { COMMAND_NAMES, NEIGHBOR_COMMANDS, type CommandName, type RunMode, RUN_MODES } from '../../../trace/format/trace-format.ts';
import {
  CLUSTER_COMPARES, CLUSTER_KEYS, CLUSTER_SPLITS, DEFAULT_REPEATS, ENGINES, MAX_ADDED_RTT_MS, MAX_CHUNK_PAUSE_MS, MAX_COMMANDS, MAX_JITTER_MS, MAX_NEIGHBOR_RATE, MAX_REPEATS, MAX_VALUE_BYTES, UNTIL_CERTAIN,
  type ClusterCompare, type ClusterKeys, type ClusterSplit, type Engine, type Repeats,
} from '../../../trace/format/run-request.ts';
import { SCALE_CHOICES, type ScaleChoice } from '../state/page-choices.ts';
import {
  ERROR_KINDS, MODE_CHOICES, hasChunks, type ErrorKind, type ModeChoice, type NeighborCommand, type RunFormState,
} from '../state/run-form-state.ts';
import { choice, decimal, flag, wholeNumber } from './link-fields.ts';
import { TARGET_NAMES, type TargetName } from '../../../trace/protocol/live-protocol.ts';

/** The run form's settings as a link holds them: every value read and within bounds. */
export interface RunLink {
  command: CommandName;
  n: number;
  valueBytes: number;
  mode: ModeChoice;
  /** Chunked runs: commands per pipeline. */
  chunk: number;
  /** The diagrams' time scale. */
  scale: ScaleChoice;
  /** Added round-trip time and jitter through the delay proxy, ms. */
  rttMs: number;
  jitterMs: number;
  /** The Redis-side probes: MONITOR (execution order and times) and strace (read()/write() calls). */
  monitor: boolean;
  strace: boolean;
  /** Skip the warm-up: the first command pays the connection's first-call costs. */
  cold: boolean;
  /** Rounds (each mode once per round, the order alternating), or "until-certain"; runs of a second or more run once. */
  repeats: Repeats;
  engine: Engine;
  /** mode=custom: the modes ticked, in RUN_MODES order, each once. */
  modes: RunMode[];
  /** Chunked runs: ms between one pipeline's replies and the next pipeline. */
  chunkPauseMs: number;
  /** A planted failing INCR at this operation (from 0), or null for none; and its kind. */
  errorAt: number | null;
  errorKind: ErrorKind;
  /** A neighbour client's rate per second (0: none) and command; the held-connection probe. */
  neighborRate: number;
  neighborCommand: NeighborCommand;
  heldConnection: boolean;
  /** Sample memory even where the request would not by itself (run-request.ts memorySampled). */
  memory: boolean;
  /** A Redis Cluster: the run's keys spread or under one hash tag (link keys=), the raw pipeline's nodes at once or in turn (split=). */
  clusterKeys: ClusterKeys;
  clusterSplit: ClusterSplit;
  /** A Redis Cluster: both keys variants or both split variants side by side (link compare=keys|split), or neither. */
  clusterCompare: ClusterCompare | null;
  /** Pipescope's private cluster: move a slot of the run's keys during the run (reshard=1). */
  reshard: boolean;
  /** The form's "More options" unfolded: a view setting, like the scale, not a setting of the run. */
  options: boolean;
  /** The private Redis picked (a page setting, beside the form); null: the backend's own. */
  target: TargetName | null;
}

export const DEFAULT_RUN_LINK: RunLink = {
  command: 'INCR', n: 10, valueBytes: 16, mode: 'both', chunk: 10_000, scale: 'shared', rttMs: 0, jitterMs: 0, monitor: false, strace: false, cold: false,
  repeats: DEFAULT_REPEATS, engine: 'ioredis', modes: ['sequential', 'pipeline'], chunkPauseMs: 0, errorAt: null, errorKind: 'runtime', neighborRate: 0,
  neighborCommand: 'INCR', heldConnection: false, memory: false, clusterKeys: 'spread', clusterSplit: 'parallel', clusterCompare: null, reshard: false, options: false, target: null,
};

const d = DEFAULT_RUN_LINK;

/** A comma list of modes: unknown names and repeats dropped, RUN_MODES order; none left is no list. */
const modeList = z.string().transform((text, ctx) => {
  const named = new Set(text.split(',').map((m) => m.trim().toLowerCase()));
  const modes = RUN_MODES.filter((m) => named.has(m));
  if (modes.length === 0) ctx.addIssue({ code: 'custom', message: 'no mode named' });
  return modes;
});

/** "until-certain" in any letter case, or a whole number of rounds in 1–MAX_REPEATS. */
const repeatsField = z.union([choice([UNTIL_CERTAIN]), wholeNumber(1, MAX_REPEATS)]);

/** Each key's reader; the typed numbers of the form are read with them too (runLinkOf). */
const RUN_FIELDS = {
  command: choice(COMMAND_NAMES).catch(d.command),
  n: wholeNumber(1, MAX_COMMANDS).catch(d.n),
  valueBytes: wholeNumber(0, MAX_VALUE_BYTES).catch(d.valueBytes),
  mode: choice(MODE_CHOICES).catch(d.mode),
  modes: modeList.catch(() => [...d.modes]),
  chunk: wholeNumber(1, MAX_COMMANDS).catch(d.chunk),
  scale: choice(SCALE_CHOICES).catch(d.scale),
  rttMs: decimal(MAX_ADDED_RTT_MS).catch(d.rttMs),
  jitterMs: decimal(MAX_JITTER_MS).catch(d.jitterMs),
  // serverTrace=1 (older links) means both probes; monitor= and strace= say each on its own.
  serverTrace: flag.optional().catch(undefined),
  monitor: flag.optional().catch(undefined),
  strace: flag.optional().catch(undefined),
  cold: flag.catch(d.cold),
  repeats: repeatsField.catch(d.repeats),
  engine: choice(ENGINES).catch(d.engine),
  chunkPauseMs: decimal(MAX_CHUNK_PAUSE_MS).catch(d.chunkPauseMs),
  errorAt: wholeNumber(0, MAX_COMMANDS - 1).nullable().catch(null),
  errorKind: choice(ERROR_KINDS).catch(d.errorKind),
  neighborRate: decimal(MAX_NEIGHBOR_RATE).catch(d.neighborRate),
  neighborCommand: choice(NEIGHBOR_COMMANDS).catch(d.neighborCommand),
  heldConnection: flag.catch(d.heldConnection),
  memory: flag.catch(d.memory),
  keys: choice(CLUSTER_KEYS).catch(d.clusterKeys),
  split: choice(CLUSTER_SPLITS).catch(d.clusterSplit),
  compare: choice(CLUSTER_COMPARES).nullable().catch(null),
  reshard: flag.catch(d.reshard),
  options: flag.catch(d.options),
  target: choice(TARGET_NAMES).nullable().catch(null),
};

/** The keys the run form reads from a link. */
export const RUN_KEYS: readonly string[] = Object.keys(RUN_FIELDS);

export const RunLinkSchema = z.object(RUN_FIELDS).transform(({ serverTrace, monitor, strace, keys, split, compare, ...rest }): RunLink => ({
  ...rest,
  clusterKeys: keys,
  clusterSplit: split,
  clusterCompare: compare,
  monitor: monitor ?? serverTrace ?? d.monitor,
  strace: strace ?? serverTrace ?? d.strace,
}));

/** The run form's settings from a link's fields (fieldsOf); never throws. */
export function parseRunLink(fields: Readonly<Record<string, string>>): RunLink {
  return RunLinkSchema.parse(fields);
}

/**
 * The run form's keys in the order a link writes them. The chunk size only when it matters or was
 * changed, delay only when there is some, each switch only when on: the usual link stays short.
 */
export function runLinkEntries(p: RunLink): [string, string][] {
  const entries: [string, string][] = [['command', p.command], ['n', String(p.n)], ['valueBytes', String(p.valueBytes)], ['mode', p.mode]];
  const add = (key: string, value: string) => entries.push([key, value]);
  if (p.mode === 'custom') add('modes', p.modes.join(','));
  if (hasChunks(p.mode, p.modes) || p.chunk !== d.chunk) add('chunk', String(p.chunk));
  add('scale', p.scale);
  if (p.rttMs > 0) add('rttMs', String(p.rttMs));
  if (p.jitterMs > 0) add('jitterMs', String(p.jitterMs));
  if (p.monitor) add('monitor', '1');
  if (p.strace) add('strace', '1');
  if (p.cold) add('cold', '1');
  if (p.repeats !== d.repeats) add('repeats', String(p.repeats));
  if (p.engine !== d.engine) add('engine', p.engine);
  if (p.chunkPauseMs > 0) add('chunkPauseMs', String(p.chunkPauseMs));
  if (p.errorAt !== null) {
    add('errorAt', String(p.errorAt));
    add('errorKind', p.errorKind);
  }
  if (p.neighborRate > 0) {
    add('neighborRate', String(p.neighborRate));
    add('neighborCommand', p.neighborCommand);
  }
  if (p.heldConnection) add('heldConnection', '1');
  if (p.memory) add('memory', '1');
  if (p.clusterKeys !== d.clusterKeys) add('keys', p.clusterKeys);
  if (p.clusterSplit !== d.clusterSplit) add('split', p.clusterSplit);
  if (p.clusterCompare !== null) add('compare', p.clusterCompare);
  if (p.reshard) add('reshard', '1');
  if (p.options) add('options', '1');
  if (p.target !== null) add('target', p.target);
  return entries;
}

/** The form a link opens: its values as text, the planted error on when the link names one. */
export function runFormOf(p: RunLink): RunFormState {
  return {
    command: p.command, n: String(p.n), valueBytes: String(p.valueBytes), mode: p.mode, chunk: String(p.chunk), rttMs: String(p.rttMs), jitterMs: String(p.jitterMs),
    monitor: p.monitor, strace: p.strace, cold: p.cold, repeats: String(p.repeats), engine: p.engine, modes: p.modes, chunkPauseMs: String(p.chunkPauseMs),
    plantError: p.errorAt !== null, errorAt: String(p.errorAt ?? 0), errorKind: p.errorKind, neighborRate: String(p.neighborRate), neighborCommand: p.neighborCommand,
    heldConnection: p.heldConnection, memory: p.memory, clusterKeys: p.clusterKeys, clusterSplit: p.clusterSplit,
    ...(p.clusterCompare ? { clusterCompare: p.clusterCompare } : {}), ...(p.reshard ? { reshard: true } : {}),
  };
}

type TypedKey = 'n' | 'valueBytes' | 'rttMs' | 'jitterMs' | 'chunk' | 'chunkPauseMs' | 'neighborRate';

/** The repeats as chosen, or `last`'s when the text does not read back as itself. */
function goodRepeats(text: string, last: Repeats): Repeats {
  const read = RUN_FIELDS.repeats.parse(text);
  return String(read) === text.trim() ? read : last;
}

/**
 * The link for a form as typed, with the time scale: a half-typed number (blank, "1e3", out of range)
 * keeps the value `last` had (the last good link), so the link never holds a value the form cannot read back.
 */
export function runLinkOf(form: RunFormState, scale: ScaleChoice, last: RunLink): RunLink {
  const good = (key: TypedKey) => {
    const read = RUN_FIELDS[key].parse(form[key]);
    return read === Number(form[key]) ? read : last[key];
  };
  const errorAt = RUN_FIELDS.errorAt.parse(form.errorAt);
  return {
    command: form.command,
    n: good('n'),
    valueBytes: good('valueBytes'),
    mode: form.mode,
    chunk: good('chunk'),
    scale,
    rttMs: good('rttMs'),
    jitterMs: good('jitterMs'),
    monitor: form.monitor,
    strace: form.strace,
    cold: form.cold,
    repeats: goodRepeats(form.repeats, last.repeats),
    engine: form.engine,
    modes: form.modes.length > 0 ? form.modes : last.modes,
    chunkPauseMs: good('chunkPauseMs'),
    errorAt: form.plantError ? (errorAt !== null && errorAt === Number(form.errorAt) ? errorAt : (last.errorAt ?? 0)) : null,
    errorKind: form.errorKind,
    neighborRate: good('neighborRate'),
    neighborCommand: form.neighborCommand,
    heldConnection: form.heldConnection,
    memory: form.memory,
    clusterKeys: form.clusterKeys,
    clusterSplit: form.clusterSplit,
    clusterCompare: form.clusterCompare ?? null,
    reshard: form.reshard ?? false,
    options: last.options,
    target: last.target,
  };
}

/** Whether a form as typed is the default one (the scale and the More options fold aside): the run the first screen shows. */
export function isDefaultRunForm(form: RunFormState): boolean {
  const entries = (link: RunLink) => JSON.stringify(runLinkEntries({ ...link, scale: d.scale, options: false, target: null }));
  return entries(runLinkOf(form, d.scale, d)) === entries(d);
}
