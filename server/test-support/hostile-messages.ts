// Hostile WebSocket messages for the live endpoint's fuzz test: malformed JSON, wrong types,
// out-of-range numbers, oversized frames, binary frames, deep nesting, prototype tricks and odd text,
// from a seeded generator (the same seed gives the same messages). None of them is a request the
// server would run: each must be answered with an error.
import { ClientMessageSchema } from '../../trace/protocol/live-protocol.ts';
import { seededRandom } from '../../trace/test-support/seeded-random.ts';

export type HostileKind = 'malformed' | 'wrong-type' | 'out-of-range' | 'oversized' | 'binary' | 'deep' | 'prototype' | 'odd-text' | 'stray-cancel';
export const HOSTILE_KINDS: HostileKind[] = ['malformed', 'wrong-type', 'out-of-range', 'oversized', 'binary', 'deep', 'prototype', 'odd-text', 'stray-cancel'];

export interface HostileMessage {
  kind: HostileKind;
  data: string | Buffer;
}

const RUN = { type: 'run', requestId: 'fuzz', spec: { command: 'PING', n: 10, modes: ['pipeline'], repeats: 1 } };
const SWEEP = { type: 'sweep', requestId: 'fuzz', spec: { command: 'PING', depths: [1, 2], perPoint: 10, repeats: 1 } };
const WRONG_VALUES: unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', '10', [], [1], {}, { n: 1 }, 'PING', ['pipeline']];
const BAD_NUMBERS: unknown[] = [-1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e9, 2_000_000, 123456789012, -0.0001, 5e-324];
const RUN_FIELDS = ['command', 'n', 'valueBytes', 'rttMs', 'jitterMs', 'engine', 'serverTrace', 'monitor', 'strace', 'cold', 'repeats', 'kernelTcp', 'chunk', 'memory', 'modes'];
const SWEEP_FIELDS = ['command', 'valueBytes', 'depths', 'perPoint', 'repeats', 'engine', 'rttMs', 'jitterMs', 'reference'];

export function hostileMessages(count: number, seed = 11): HostileMessage[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (max: number) => Math.floor(random() * max);
  const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  const base = () => clone(random() < 0.6 ? RUN : SWEEP) as { type: string; requestId: unknown; spec: Record<string, unknown> };

  const makers: Record<HostileKind, () => string | Buffer> = {
    malformed: () => {
      const text = JSON.stringify(base());
      return pick([
        () => text.slice(0, int(text.length)),
        () => text.replace(/[{}[\]":,]/, ''),
        () => `${text}}`,
        () => Array.from({ length: 1 + int(80) }, () => String.fromCharCode(32 + int(95))).join(''),
        () => pick(['', ' ', 'null', 'true', '42', '"run"', '[]', '[{}]', 'NaN', 'undefined', '{"type":}', "{'type':'run'}"]),
      ])();
    },
    'wrong-type': () => {
      const message = base();
      const where = int(3);
      if (where === 0) (message as Record<string, unknown>)['type'] = pick(WRONG_VALUES.filter((v) => v !== 'x'));
      else if (where === 1) message.requestId = pick([null, 0, 1, true, [], {}, '', 'x'.repeat(65)]);
      else message.spec[pick(message.type === 'run' ? RUN_FIELDS : SWEEP_FIELDS)] = pick(WRONG_VALUES);
      return JSON.stringify(message);
    },
    'out-of-range': () => {
      const message = base();
      const fields = message.type === 'run' ? ['n', 'valueBytes', 'rttMs', 'jitterMs', 'repeats', 'chunk'] : ['perPoint', 'repeats', 'valueBytes', 'rttMs', 'jitterMs'];
      message.spec[pick(fields)] = pick(BAD_NUMBERS);
      if (message.type === 'sweep' && random() < 0.3) message.spec['depths'] = pick([[], [0], [2, 1], [1, 1], [1e308], Array.from({ length: 30 }, (_, i) => i + 1)]);
      return JSON.stringify(message).replace('"PING"', random() < 0.2 ? '"FLUSHALL"' : '"PING"');
    },
    oversized: () => {
      const message = base();
      message.requestId = 'x'.repeat(16 * 1024 + int(8 * 1024));
      return JSON.stringify(message);
    },
    binary: () => Buffer.from(Array.from({ length: 1 + int(2000) }, () => int(256))),
    deep: () => {
      const depth = 500 + int(7000);
      return pick([
        () => `{"type":"run","requestId":"deep","spec":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        () => `${'['.repeat(depth)}${']'.repeat(depth)}`,
        () => `${'{"a":'.repeat(Math.min(depth, 3000))}1${'}'.repeat(Math.min(depth, 3000))}`,
        () => `{"type":"sweep","requestId":"deep","spec":{"command":"PING","depths":${'['.repeat(depth)}1${']'.repeat(depth)}}}`,
      ])();
    },
    prototype: () => pick([
      () => '{"__proto__":{"type":"run"},"requestId":"p"}',
      () => `{"type":"run","requestId":"p","spec":{"__proto__":{"n":10,"command":"PING","modes":["pipeline"]}}}`,
      () => '{"constructor":{"prototype":{"polluted":true}},"type":"cancel"}',
      () => `{"type":"toString","requestId":"p"}`,
      () => `{"type":"__proto__","requestId":"p","spec":{}}`,
    ])(),
    'odd-text': () => pick([
      () => `{"type":"run\\u0000","requestId":"a","spec":{}}`,
      () => `{"type":"run","requestId":"a","spec":{"command":"PING\\r\\nFLUSHALL","n":1,"modes":["pipeline"]}}`,
      () => `{"type":"sweep","requestId":"a","spec":{"command":"<script>alert(1)</script>","depths":[1]}}`,
      () => `\uFEFF${JSON.stringify(base())}`,
      () => `{"type":"run","requestId":"a","spec":{"command":"PİNG","n":1,"modes":["pipeline"]}}`,
      () => `{"type":"run","requestId":"a","spec":{"command":"PING","n":"1e1","modes":["pipeline"]}}`,
    ])(),
    'stray-cancel': () => JSON.stringify({ type: 'cancel', requestId: `never-${int(1e9)}` }),
  };

  const messages: HostileMessage[] = [];
  while (messages.length < count) {
    const kind = HOSTILE_KINDS[messages.length % HOSTILE_KINDS.length]!;
    const data = makers[kind]();
    // Only messages that must be refused (oversized, binary and deep ones cannot be valid requests).
    if (typeof data === 'string' && !['oversized', 'deep'].includes(kind) && wouldRun(data)) continue;
    messages.push({ kind, data });
  }
  return messages;
}

function wouldRun(text: string): boolean {
  try {
    const parsed = ClientMessageSchema.safeParse(JSON.parse(text));
    return parsed.success && parsed.data.type !== 'cancel';
  } catch {
    return false;
  }
}
