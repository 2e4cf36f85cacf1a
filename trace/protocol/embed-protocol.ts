// Protocol v1 between an embedded player (the embed/ page in an iframe) and the page that hosts it, over
// window.postMessage. Every message is `{ source: 'pipescope', version: 1, type, … }`.
//   embed → host: ready {traces, durationUs} · height {height: CSS px} · state {positionUs, playing, speed,
//                 endUs} (µs since t0; positionUs null = the whole run drawn) · error {message}
//   host → embed: ping · play · pause · seek {t: µs since t0} · load-trace {urls} or {url} · set-theme {theme}
// The host's messages are validated here with zod; anything else becomes a readable error, never a throw.
// Nothing the embed sends is private (the traces came from public URLs), so without an `origin` parameter
// its messages go to '*'.
import { z } from 'zod';
import { MAX_DISPLAY_US, MAX_TRACE_FILES } from './page-limits.ts';

export const PROTOCOL_SOURCE = 'pipescope';
export const PROTOCOL_VERSION = 1;

const envelope = { source: z.literal(PROTOCOL_SOURCE), version: z.literal(PROTOCOL_VERSION) };
const traceUrl = z.string().trim().min(1).max(4096);

export const HostMessageSchema = z.discriminatedUnion('type', [
  z.object({ ...envelope, type: z.literal('ping') }),
  z.object({ ...envelope, type: z.literal('play') }),
  z.object({ ...envelope, type: z.literal('pause') }),
  z.object({ ...envelope, type: z.literal('seek'), t: z.number().min(0).max(MAX_DISPLAY_US) }),
  // {urls: [...]} or {url}: one of the two (readHostMessage checks that one is there).
  z.object({ ...envelope, type: z.literal('load-trace'), urls: z.array(traceUrl).min(1).max(MAX_TRACE_FILES).optional(), url: traceUrl.optional() })
    .refine((m) => m.urls !== undefined || m.url !== undefined, { message: 'needs urls (an array of trace URLs) or url' }),
  z.object({ ...envelope, type: z.literal('set-theme'), theme: z.enum(['light', 'dark', 'auto']) }),
]);

export type HostMessage = z.infer<typeof HostMessageSchema>;
export type HostCommand =
  | { type: 'ping' | 'play' | 'pause' }
  | { type: 'seek'; t: number }
  | { type: 'load-trace'; urls: string[] }
  | { type: 'set-theme'; theme: 'light' | 'dark' | 'auto' };

const TYPES = ['ping', 'play', 'pause', 'seek', 'load-trace', 'set-theme'];

/** A host message as a command (load-trace's `url` becomes `urls`), or why it was refused, in plain words. */
export function readHostMessage(data: unknown): { ok: true; command: HostCommand } | { ok: false; error: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, error: 'A message must be an object { source: "pipescope", version: 1, type, … }.' };
  const record = data as Record<string, unknown>;
  if (record['source'] !== PROTOCOL_SOURCE) return { ok: false, error: 'A message must have source: "pipescope".' };
  if (record['version'] !== PROTOCOL_VERSION) return { ok: false, error: `Unsupported protocol version ${JSON.stringify(record['version'])}: this player speaks version ${PROTOCOL_VERSION}.` };
  if (typeof record['type'] !== 'string' || !TYPES.includes(record['type'])) {
    return { ok: false, error: `Unknown message type ${JSON.stringify(record['type'])}: expected one of ${TYPES.join(', ')}.` };
  }
  const parsed = HostMessageSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    return { ok: false, error: `Invalid "${record['type']}" message${where}: ${issue?.message ?? 'does not match the protocol'}.` };
  }
  const m = parsed.data;
  switch (m.type) {
    case 'seek':
      return { ok: true, command: { type: 'seek', t: m.t } };
    case 'load-trace':
      return { ok: true, command: { type: 'load-trace', urls: m.urls ?? [m.url!] } };
    case 'set-theme':
      return { ok: true, command: { type: 'set-theme', theme: m.theme } };
    default:
      return { ok: true, command: { type: m.type } };
  }
}

export interface EmbedReady {
  /** Runs drawn. */
  traces: number;
  /** The longest run's timeline, µs since t0 (the playback end). */
  durationUs: number;
}

/** The player's playback state, as its PlaybackClock holds it. */
export interface EmbedState {
  /** The playhead, µs since t0; null = not playing back (everything drawn). */
  positionUs: number | null;
  playing: boolean;
  /** Trace µs per wall-clock µs (1 = real time). */
  speed: number;
  /** The end of the timeline played, µs since t0 (the longest run on screen); 0 = nothing to play. */
  endUs: number;
}

type Envelope = { source: typeof PROTOCOL_SOURCE; version: typeof PROTOCOL_VERSION };
export type EmbedMessage = Envelope &
  (({ type: 'ready' } & EmbedReady) | { type: 'height'; height: number } | ({ type: 'state' } & EmbedState) | { type: 'error'; message: string });

const wrap = <T extends object>(body: T) => ({ source: PROTOCOL_SOURCE, version: PROTOCOL_VERSION, ...body }) as const;

export const readyMessage = (ready: EmbedReady): EmbedMessage => wrap({ type: 'ready', traces: ready.traces, durationUs: ready.durationUs });
/** The document's height in CSS px, rounded up (the host sizes its iframe with it). */
export const heightMessage = (heightPx: number): EmbedMessage => wrap({ type: 'height', height: Math.ceil(heightPx) });
export const stateMessage = (s: EmbedState): EmbedMessage => wrap({ type: 'state', positionUs: s.positionUs, playing: s.playing, speed: s.speed, endUs: s.endUs });
export const errorMessage = (message: string): EmbedMessage => wrap({ type: 'error', message });

/** Builds a host → embed message (for host pages written in TypeScript, and tests). */
export function hostMessage(command: HostCommand): HostMessage {
  return { source: PROTOCOL_SOURCE, version: PROTOCOL_VERSION, ...command } as HostMessage;
}
