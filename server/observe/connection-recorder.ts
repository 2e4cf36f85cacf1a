// Records one connection through the observing port: both byte streams parsed (what the client sent
// into commands, what Redis sent into frames), each reply paired with its command in order, frames that
// answer no command (RESP3 pushes, pub/sub messages, MONITOR lines) kept apart, the library's name and
// version taken from what the client says of itself, and every chunk's time at the proxy. The record
// (trace/format/observed-trace.ts ObservedRecord) is append-only and becomes the connection's trace document.
//
// It runs on every chunk of every observed connection, so its common case allocates nothing per command:
// commands, replies and chunks go into typed columns of indexes into tables of distinct values
// (record-columns.ts), and the document's ObservedRecord is built from them when a trace is asked for.
//
// Pairing follows Redis's rules: one reply per command, in order, except that a (un)subscribe command
// gets one confirmation per channel (the first is its reply, the rest are unpaired frames), that after
// MONITOR's +OK every monitor line is unpaired, and that CLIENT REPLY OFF|SKIP makes replies go missing:
// pairing stops there and the record says so (the connection is still forwarded).
import type { KernelTcp } from '../../trace/format/trace-format.ts';
import { MAX_KEPT_PUSHES, type ObservedRecord } from '../../trace/format/observed-trace.ts';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { REDACTED, replyMayHoldSecret } from '../protocol/command-secrets.ts';
import { HeadCache } from '../protocol/head-cache.ts';
import { RespReplyParser, frameOutcome, frameText, type FrameValue, type ReplyFrame } from '../protocol/resp-reply-parser.ts';
import { RespRequestParser, type ParsedChunk, type ParsedCommand, type RequestLimits } from '../protocol/resp-request-parser.ts';
import { commandText } from './command-text.ts';
import { ChunkColumns, IndexColumn, InternTable, NumberColumn, RingQueue } from './record-columns.ts';

const CONFIRMATIONS = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe']);
const MESSAGES = new Set(['message', 'pmessage', 'smessage']);
const MONITOR_LINE = /^\d+\.\d+ \[/;

/** Names whose replies change how the connection is read (afterReply). */
const AFTER_REPLY_NAMES = new Set(['monitor', 'reset']);
/** Names whose commands change how the connection is read (learnIdentity). */
const IDENTITY_NAMES = new Set(['client', 'hello', 'subscribe', 'psubscribe', 'ssubscribe']);

/** What the record holds besides its columns: who, how, and what happened to the connection. */
export type RecordMeta = Omit<ObservedRecord, 'commands' | 'commandBytes' | 'outcomes' | 'replyBytes' | 'fromClient' | 'toServer' | 'fromServer' | 'toClient'>;

/** The outcome recorded for a reply that may hold a password. */
const SECRET_OUTCOME: Outcome = { reply: REDACTED };
/** Estimated bytes of a command or reply recorded again (its cells in the columns). */
const CELL_BYTES = NumberColumn.BYTES_PER_VALUE + IndexColumn.BYTES_PER_VALUE;

export interface RecorderHooks {
  /** Called with the estimated bytes the record grew by; false: the session is full, stop recording. */
  grow(bytes: number, commands: number): boolean;
  /** Why the session stopped recording, for the note. */
  fullReason(): string;
}

export class ConnectionRecorder {
  /** Everything but the columns; the columns' counts are commandCount, replyCount and chunkCounts. */
  readonly meta: RecordMeta;
  private readonly requests: RespRequestParser;
  private readonly replies = new RespReplyParser();
  private readonly replyHeads = new HeadCache();
  /** Distinct command texts, reply outcomes and chunk heads, which the columns name by index. */
  private readonly texts = new InternTable<string>();
  private readonly outcomes = new InternTable<Outcome>();
  private readonly heads = new InternTable<string>();
  /** The recorded commands (text index, bytes) and replies (outcome index, bytes), by command index. */
  private readonly commandTexts = new IndexColumn();
  private readonly commandBytes = new NumberColumn();
  private readonly replyOutcomes = new IndexColumn();
  private readonly replyBytes = new NumberColumn();
  private readonly fromClientChunks = new ChunkColumns(this.heads);
  private readonly toServerChunks = new ChunkColumns(this.heads);
  private readonly fromServerChunks = new ChunkColumns(this.heads);
  private readonly toClientChunks = new ChunkColumns(this.heads);
  /**
   * Commands sent whose replies are due, oldest first, and how many were paired before them. Recorded
   * commands are a prefix of those sent (recording only ever stops), so the command paired is recorded
   * exactly when its index, `paired`, is below commandCount.
   */
  private readonly waiting = new RingQueue<ParsedCommand>();
  private paired = 0;
  /** The last command seen that says nothing of the client (a parser hands on the same object for the same bytes). */
  private lastPlain: ParsedCommand | null = null;
  /** Confirmations still due from the last (un)subscribe command paired: one per channel, the first being its reply. */
  private extraConfirmations = 0;
  private t0: bigint | null = null;
  private subscribeSeen = false;
  private monitoring = false;
  private pairingStopped = false;
  /** Commands recorded before the session filled up (null: still recording). */
  private cutAt: number | null = null;
  /** The HELLO waiting for its reply, to learn the protocol version once Redis accepts it. */
  private pendingHello: { waiting: ParsedCommand; protocol: 2 | 3 } | null = null;

  constructor(
    record: Omit<ObservedRecord, 'commands' | 'commandBytes' | 'outcomes' | 'replyBytes' | 'fromClient' | 'toServer' | 'fromServer' | 'toClient' | 'pushes' | 'pushCount' | 'notes' | 'kernelTcp' | 'closed' | 'protocol'>,
    limits: RequestLimits,
    private readonly hooks: RecorderHooks,
  ) {
    this.meta = { ...record, protocol: 2, pushes: [], pushCount: 0, notes: [], kernelTcp: null, closed: false };
    this.requests = new RespRequestParser(limits);
  }

  private micros(at: bigint): number {
    if (this.t0 === null) {
      this.t0 = at;
      this.meta.startedAt = new Date().toISOString();
    }
    return Math.max(0, Math.round(Number(at - this.t0) / 1000));
  }

  private get recording(): boolean {
    return this.cutAt === null && !this.pairingStopped;
  }

  /**
   * Reads a chunk from the client, before it is forwarded: the commands it completed, or the protocol
   * error that must close the connection (noted here; nothing of that chunk may be forwarded). Only
   * reading: fromClient() records it, once it is on its way.
   */
  readFromClient(chunk: Buffer): ParsedChunk {
    const parsed = this.requests.feed(chunk);
    if (parsed.error) this.note(`closed by Pipescope: ${parsed.error}; nothing of that chunk was forwarded`);
    return parsed;
  }

  /**
   * Records a chunk that readFromClient() read, which arrived at `at` (hrtime ns): its commands wait for
   * their replies. Returns how many of them were recorded (what its forwarding carries).
   */
  fromClient(parsed: ParsedChunk, bytes: number, at: bigint): number {
    const atUs = this.micros(at);
    let recorded = 0;
    let grown = ChunkColumns.BYTES_PER_CHUNK;
    for (const command of parsed.commands) {
      this.waiting.push(command);
      if (this.recording) {
        const id = this.texts.indexOf((command.text ??= commandText(command)));
        if (this.texts.added) grown += command.text.length * 2 + 32;
        this.commandTexts.push(id);
        this.commandBytes.push(command.bytes);
        grown += CELL_BYTES;
        recorded++;
      }
      if (command !== this.lastPlain) {
        if (IDENTITY_NAMES.has(command.name)) this.learnIdentity(command);
        else this.lastPlain = command;
      }
    }
    if (this.cutAt === null || recorded > 0) {
      this.fromClientChunks.push(atUs, bytes, recorded, parsed.head);
      if (this.heads.added) grown += parsed.head.length * 2 + 32;
    }
    if (!this.hooks.grow(grown, recorded)) this.cut(this.hooks.fullReason());
    return recorded;
  }

  /** The proxy wrote a client chunk on to Redis (`commands`: what fromClient returned for it; `head`: its head). */
  toServer(bytes: number, commands: number, at: bigint, head: string): void {
    if (this.cutAt !== null && commands === 0 && this.allAnswered()) return;
    this.toServerChunks.push(this.micros(at), bytes, commands, head);
  }

  /**
   * A chunk from Redis that arrived at `at` (hrtime ns): its frames paired with the commands waiting.
   * Returns the replies it completed and its head, or the protocol error that must close the connection.
   */
  fromServer(chunk: Buffer, at: bigint): { replies: number; head: string } | { error: string } {
    const { frames, error } = this.replies.feed(chunk);
    const atUs = this.micros(at);
    let replies = 0;
    let secret = false;
    let grown = ChunkColumns.BYTES_PER_CHUNK;
    for (const frame of frames) {
      const paired = this.pair(frame, atUs);
      if (paired === 'reply' || paired === 'secret') {
        replies++;
        grown += CELL_BYTES;
        if (this.outcomes.added) grown += 64;
      }
      if (paired === 'secret') secret = true;
    }
    const head = secret ? REDACTED : this.replyHeads.of(chunk);
    if (replies > 0 || !this.allAnswered() || this.cutAt === null) {
      this.fromServerChunks.push(atUs, chunk.length, replies, head);
      if (this.heads.added) grown += head.length * 2 + 32;
    }
    this.hooks.grow(grown, 0);
    if (error) {
      this.note(`closed by Pipescope: ${error}`);
      return { error };
    }
    return { replies, head };
  }

  /** The proxy wrote a Redis chunk on to the client. */
  toClient(bytes: number, replies: number, at: bigint, head: string): void {
    if (this.cutAt !== null && replies === 0 && this.allAnswered()) return;
    this.toClientChunks.push(this.micros(at), bytes, replies, head);
  }

  closed(): void {
    this.meta.closed = true;
  }

  /** Commands recorded so far. */
  get commandCount(): number {
    return this.commandTexts.length;
  }

  /** Replies recorded so far (paired with the first replyCount commands). */
  get replyCount(): number {
    return this.replyOutcomes.length;
  }

  /** Chunks recorded from the client and to it, so far. */
  get chunkCounts(): { fromClient: number; toClient: number } {
    return { fromClient: this.fromClientChunks.length, toClient: this.toClientChunks.length };
  }

  /** The record in the document's shape, as far as it got: built from the columns (O(commands + chunks)). */
  get record(): ObservedRecord {
    const n = this.commandCount;
    const commands: string[] = new Array(n);
    for (let i = 0; i < n; i++) commands[i] = this.texts.get(this.commandTexts.get(i));
    const replies = this.replyCount;
    const outcomes: Outcome[] = new Array(replies);
    for (let i = 0; i < replies; i++) outcomes[i] = this.outcomes.get(this.replyOutcomes.get(i));
    return {
      ...this.meta,
      commands,
      commandBytes: this.commandBytes.toArray(),
      outcomes,
      replyBytes: this.replyBytes.toArray(),
      fromClient: this.fromClientChunks.writes(),
      toServer: this.toServerChunks.writes(),
      fromServer: this.fromServerChunks.reads(),
      toClient: this.toClientChunks.reads(),
    };
  }

  /**
   * MONITOR is on for this connection from now on, with Redis's clock on ours. `fromCommand`: the first
   * command Redis has not been sent yet (by default every command recorded has been; a connection whose
   * upstream opens now has sent none, even if its client's first commands are already recorded and held).
   */
  startMonitor(clock: { offsetUs: number; uncertaintyUs: number; samples: number }, fromCommand = this.commandCount): void {
    this.meta.monitor ??= { clock, executions: [], fromCommand };
  }

  /** A MONITOR line of this connection: Redis ran `name` at `atEpochUs` (its clock). */
  execution(atEpochUs: number, name: string): void {
    const monitor = this.meta.monitor;
    if (!monitor || this.t0 === null || monitor.executions.length >= this.commandCount) return;
    monitor.executions.push({ atUs: atEpochUs - monitor.clock.offsetUs - Number(this.t0 / 1000n), name: name.slice(0, 32) });
  }

  setKernelTcp(kernelTcp: KernelTcp): void {
    this.meta.kernelTcp = kernelTcp;
  }

  note(text: string): void {
    if (this.meta.notes.length < 20) this.meta.notes.push(text);
  }

  /** Stops recording new commands (the session is full); replies to those already recorded still are. */
  cut(reason: string): void {
    if (this.cutAt !== null) return;
    this.cutAt = this.commandCount;
    this.note(`recording stopped after ${this.cutAt.toLocaleString('en-US')} commands: ${reason}; the connection is still forwarded`);
  }

  private allAnswered(): boolean {
    return this.replyCount >= this.commandCount;
  }

  /** CLIENT SETINFO, CLIENT SETNAME, HELLO [SETNAME], MONITOR, CLIENT REPLY: what changes how to read the connection. */
  private learnIdentity(command: ParsedCommand): void {
    const word = (i: number) => command.args[i]?.toString('utf8') ?? '';
    const name = word(0).toUpperCase();
    const sub = word(1).toUpperCase();
    if (name === 'CLIENT' && sub === 'SETINFO') {
      const attribute = word(2).toUpperCase();
      if (attribute === 'LIB-NAME') this.meta.libName = word(3).slice(0, 128);
      if (attribute === 'LIB-VER') this.meta.libVersion = word(3).slice(0, 128);
    } else if (name === 'CLIENT' && sub === 'SETNAME') {
      this.meta.clientName = word(2).slice(0, 128);
    } else if (name === 'HELLO') {
      for (let i = 2; i < command.args.length; i++) if (word(i).toUpperCase() === 'SETNAME') this.meta.clientName = word(i + 1).slice(0, 128);
      if (sub === '3' || sub === '2') this.pendingHello = { waiting: command, protocol: sub === '3' ? 3 : 2 };
    } else if (name === 'CLIENT' && sub === 'REPLY' && ['OFF', 'SKIP'].includes(word(2).toUpperCase())) {
      this.stopPairing(`CLIENT REPLY ${word(2).toUpperCase()}: Redis sends no reply to some commands, so replies can no longer be paired with them`);
    } else if (['SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE'].includes(name)) {
      this.subscribeSeen = true;
    }
  }

  private stopPairing(why: string): void {
    if (this.pairingStopped) return;
    this.pairingStopped = true;
    this.note(`pairing stopped: ${why}; the connection is still forwarded`);
  }

  /** Pairs a frame with the oldest waiting command, or keeps it as unpaired. */
  private pair(frame: ReplyFrame, atUs: number): 'reply' | 'secret' | 'push' | 'ignored' {
    if (this.pairingStopped) return 'ignored';
    const head = this.waiting.peek();
    // The common case, first: no pub/sub, no MONITOR, not a push: the reply of the oldest command.
    const special = this.subscribeSeen || this.monitoring || frame.push;
    const kind = special ? firstWord(frame.value) : null;
    const confirmation = kind !== null && CONFIRMATIONS.has(kind);
    let paired: boolean;
    if (!special) paired = head !== undefined;
    else if (confirmation && this.extraConfirmations > 0) {
      this.extraConfirmations--;
      paired = false;
    } else if (confirmation) paired = head !== undefined && head.name === kind;
    else if (frame.push) paired = false;
    else if (this.subscribeSeen && kind !== null && MESSAGES.has(kind)) paired = false;
    else if (this.monitoring && frame.value.kind === 'string' && MONITOR_LINE.test(frame.value.text)) paired = false;
    else paired = head !== undefined;
    if (!paired) {
      this.meta.pushCount++;
      if (this.meta.pushes.length < MAX_KEPT_PUSHES && this.cutAt === null) {
        this.meta.pushes.push({ atUs, bytes: frame.bytes, text: frameText(frame.value, 200) });
        this.hooks.grow(160, 0);
      }
      return 'push';
    }
    const waiting = head!;
    const recorded = this.paired < this.commandCount;
    // A subscribe command's first confirmation is its reply; one more comes for each of its other channels
    // (UNSUBSCRIBE without channels: one per subscription left, which each confirmation counts down).
    if (confirmation) this.extraConfirmations = waiting.args.length > 1 ? waiting.args.length - 2 : remainingCount(frame.value);
    this.waiting.shift();
    this.paired++;
    if (this.pendingHello || AFTER_REPLY_NAMES.has(waiting.name)) this.afterReply(waiting, frame);
    if (!recorded) return 'ignored';
    const secret = waiting.name === 'config' || waiting.name === 'acl' ? replyMayHoldSecret(waiting.args) : false;
    const outcome: Outcome = secret ? SECRET_OUTCOME : (frame.outcome ??= frameOutcome(frame.value));
    this.replyOutcomes.push(this.outcomes.indexOf(outcome));
    this.replyBytes.push(frame.bytes);
    return secret ? 'secret' : 'reply';
  }

  private afterReply(waiting: ParsedCommand, frame: ReplyFrame): void {
    if (waiting.name === 'monitor' && frame.value.kind === 'string') this.monitoring = true;
    if (this.pendingHello?.waiting === waiting) {
      if (frame.value.kind !== 'error') this.meta.protocol = this.pendingHello.protocol;
      this.pendingHello = null;
    }
    if (waiting.name === 'reset') {
      this.monitoring = false;
      this.meta.protocol = 2;
    }
  }
}

/** The subscription count a pub/sub confirmation ends with (["unsubscribe", "ch", 2] → 2). */
function remainingCount(value: FrameValue): number {
  const last = value.kind === 'aggregate' ? value.items[2] : undefined;
  return last?.kind === 'number' && typeof last.value === 'number' ? last.value : 0;
}

/** The first element of an array or push frame, lower-cased, when it is a string (pub/sub kinds). */
function firstWord(value: FrameValue): string | null {
  if (value.kind !== 'aggregate' || (value.type !== 'array' && value.type !== 'push')) return null;
  const first = value.items[0];
  return first?.kind === 'string' ? first.text.toLowerCase() : null;
}

