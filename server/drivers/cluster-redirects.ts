// The raw engine on a Redis Cluster follows the redirects a node answers with, as a cluster client
// must, and records each one: `-MOVED <slot> <host:port>` (the slot lives elsewhere for good: the slot
// map is updated and the command sent again to that node, on a connection opened if there is none),
// `-ASK <slot> <host:port>` (the slot is moving: `ASKING` then the command, once, to that node, in one
// socket write; the map is not changed), `-TRYAGAIN` (a multi-key command while its slot moves: sent
// again to the same node after a short backoff). `-CROSSSLOT` is recorded and not followed: the same
// command would be refused anywhere.
//
// Every command on the wire is a WireEntry, in each socket's own order: the run's commands, their
// resends and the ASKINGs are all commands of the trace (the run numbers them in the order written,
// across sockets, runs/cluster-run.ts). Bounded: at most MAX_REDIRECTS_PER_COMMAND redirects of one
// command and `maxPerRun` in a run; past either, the run fails with words (a redirect storm: the
// cluster's slots keep moving, or two nodes disagree).
import type { Outcome } from '../../trace/format/trace-builder.ts';
import type { RedirectKind } from '../../trace/format/cluster-format.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { encode } from '../protocol/resp-encoder.ts';
import { RespError, type RespValue } from '../protocol/resp-reply-reader.ts';

/** Redirects one command may take before the run gives up (ioredis's default maxRedirections is 16). */
export const MAX_REDIRECTS_PER_COMMAND = 16;
/** A run's cap on redirects: enough for every command of a big pipeline to meet one MOVED and one ASK. */
export function redirectsPerRun(n: number): number {
  return Math.min(1_000_000, 2 * n + 100);
}
/** TRYAGAIN backoff: attempt a waits TRYAGAIN_BASE_MS × 2^(a−1), at most TRYAGAIN_MAX_MS (ms). */
const TRYAGAIN_BASE_MS = 2;
const TRYAGAIN_MAX_MS = 100;

const ASKING = encode(['ASKING']);

/** A redirect error reply, parsed: its kind, the slot and address it names (MOVED, ASK). */
export interface ParsedRedirect {
  kind: RedirectKind;
  slot?: number;
  to?: string;
}

/** The redirect an error reply is, or null for any other error ("MOVED 9233 127.0.0.1:7602", "ASK …", "TRYAGAIN …", "CROSSSLOT …"). */
export function parseRedirect(message: string): ParsedRedirect | null {
  const [kind, slot, to] = message.split(' ');
  if ((kind === 'MOVED' || kind === 'ASK') && slot !== undefined && to !== undefined && /^\d+$/.test(slot) && to.includes(':')) {
    const value = Number(slot);
    if (value < 16384) return { kind, slot: value, to };
  }
  if (kind === 'TRYAGAIN' || kind === 'CROSSSLOT') return { kind };
  return null;
}

/** One command on one socket's wire. `op`: the run's command it carries (its workload index), or −1 for ASKING. */
export interface WireEntry {
  op: number;
  kind: 'work' | 'resend' | 'asking';
  connection: number;
  outcome?: Outcome;
  /** Its place in the trace's commands, once a flush has taken the write that carried it. */
  position?: number;
}

/** A redirect as it happened; positions are resolved once the trace numbers its entries. */
export interface RedirectEvent {
  refused: WireEntry;
  kind: RedirectKind;
  slot?: number;
  /** The index (in the run's connections) of the node that answered. */
  from: number;
  to?: string;
  error: string;
  followedBy?: WireEntry;
}

/** What the follower needs of the run: its sockets, and where each command goes. */
export interface RedirectRoutes {
  /** Writes `bytes` carrying `count` commands on connection `k`; `each` gets their replies in order. */
  write(k: number, bytes: Buffer, count: number, each: (reply: RespValue) => void): Promise<void>;
  /** The connection to a node's address, opened (and watched) now if the run has none to it. */
  connectionTo(address: string): Promise<number>;
  /** The command's bytes (workload index). */
  commandBytes(op: number): Buffer;
}

export class RedirectError extends Error {
  override name = 'RedirectError';
}

export class RedirectFollower {
  /** Each socket's commands in the order written on it (the order its replies come back). */
  readonly queues: WireEntry[][] = [];
  readonly redirects: RedirectEvent[] = [];
  /** Each run command's final reply (after every redirect followed), by workload index. */
  readonly answers: (WireEntry | undefined)[];
  /** How many run commands have their final reply so far. */
  answered = 0;
  private readonly redirectsOf: Uint8Array;
  private readonly pending = new Set<Promise<void>>();
  private failure: Error | undefined;

  constructor(
    private readonly routes: RedirectRoutes,
    /** The slot map: slot → connection index; MOVED updates it. */
    readonly slotOwner: Int32Array,
    n: number,
    /** false: every redirect is recorded and none followed (a transaction or one MSET, whose refusals are the lesson). */
    private readonly follows = true,
    private readonly maxPerRun = redirectsPerRun(n),
  ) {
    this.answers = new Array<WireEntry | undefined>(n);
    this.redirectsOf = new Uint8Array(n);
  }

  /** The run's commands `ops` (workload indices) in one write on connection `k`, as `bytes`. */
  send(k: number, ops: readonly number[], bytes: Buffer): Promise<void> {
    return this.write(k, ops.map((op) => ({ op, kind: 'work' as const, connection: k })), bytes);
  }

  /** Resolves once every redirect met so far has been followed to a final reply; throws the first failure. */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    if (this.failure) throw this.failure;
  }

  private write(k: number, entries: WireEntry[], bytes: Buffer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    (this.queues[k] ??= []).push(...entries);
    let next = 0;
    return this.routes.write(k, bytes, entries.length, (reply) => this.received(entries[next++]!, reply));
  }

  private received(entry: WireEntry, reply: RespValue): void {
    entry.outcome = reply instanceof RespError ? { error: reply.message } : { reply: previewReply(reply) };
    if (entry.kind === 'asking') return;
    const redirect = reply instanceof RespError ? parseRedirect(reply.message) : null;
    if (!redirect) {
      this.answer(entry);
      return;
    }
    const event: RedirectEvent = { refused: entry, kind: redirect.kind, from: entry.connection, error: (reply as RespError).message };
    if (redirect.slot !== undefined) event.slot = redirect.slot;
    if (redirect.to !== undefined) event.to = redirect.to;
    this.redirects.push(event);
    if (redirect.kind === 'CROSSSLOT' || !this.follows) {
      this.answer(entry); // CROSSSLOT: the same command is refused on any node; not following: recorded as answered
      return;
    }
    const times = ++this.redirectsOf[entry.op]!;
    if (times > MAX_REDIRECTS_PER_COMMAND) {
      return this.fail(`command ${entry.op} of the run was redirected ${MAX_REDIRECTS_PER_COMMAND} times (the last: "${event.error}"): ` +
        'the cluster\'s nodes keep sending it elsewhere; the run stopped following it');
    }
    if (this.redirects.length > this.maxPerRun) {
      return this.fail(`the run met more than ${this.maxPerRun} redirects (the last: "${event.error}"): a redirect storm; the run stopped following`);
    }
    this.track(this.follow(event, redirect, times));
  }

  private async follow(event: RedirectEvent, redirect: ParsedRedirect, attempt: number): Promise<void> {
    const op = event.refused.op;
    const bytes = this.routes.commandBytes(op);
    if (redirect.kind === 'TRYAGAIN') {
      await new Promise((resolve) => setTimeout(resolve, Math.min(TRYAGAIN_MAX_MS, TRYAGAIN_BASE_MS * 2 ** (attempt - 1))));
      const resend: WireEntry = { op, kind: 'resend', connection: event.from };
      event.followedBy = resend;
      return this.write(event.from, [resend], bytes);
    }
    const k = await this.routes.connectionTo(redirect.to!);
    const resend: WireEntry = { op, kind: 'resend', connection: k };
    event.followedBy = resend;
    if (redirect.kind === 'MOVED') {
      this.slotOwner[redirect.slot!] = k;
      return this.write(k, [resend], bytes);
    }
    // ASK: ASKING and the command in one write: the node serves the slot it imports for that one command.
    return this.write(k, [{ op: -1, kind: 'asking', connection: k }, resend], Buffer.concat([ASKING, bytes]));
  }

  private answer(entry: WireEntry): void {
    this.answers[entry.op] = entry;
    this.answered++;
  }

  private track(work: Promise<void>): void {
    const tracked: Promise<void> = work.catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }).finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private fail(message: string): void {
    this.failure ??= new RedirectError(`Redis Cluster: ${message}`);
  }
}
