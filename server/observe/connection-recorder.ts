// Records one connection through the observing port: both byte streams parsed (what the client sent
// into commands, what Redis sent into frames), each reply paired with its command in order, frames that
// answer no command (RESP3 pushes, pub/sub messages, MONITOR lines) kept apart, the library's name and
// version taken from what the client says of itself, and every chunk's time at the proxy. The record
// (trace/format/observed-trace.ts ObservedRecord) is append-only and becomes the connection's trace document.
//
// Pairing follows Redis's rules: one reply per command, in order, except that a (un)subscribe command
// gets one confirmation per channel (the first is its reply, the rest are unpaired frames), that after
// MONITOR's +OK every monitor line is unpaired, and that CLIENT REPLY OFF|SKIP makes replies go missing:
// pairing stops there and the record says so (the connection is still forwarded).
import type { KernelTcp, ReplyValue } from '../../trace/format/trace-format.ts';
import { REPLY_PREVIEW_CHARS } from '../../trace/format/trace-format.ts';
import { MAX_KEPT_PUSHES, type ObservedRecord } from '../../trace/format/observed-trace.ts';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { REDACTED, replyMayHoldSecret } from '../protocol/command-secrets.ts';
import { RespReplyParser, frameText, type FrameValue, type ReplyFrame } from '../protocol/resp-reply-parser.ts';
import { RespRequestParser, type ParsedCommand, type RequestLimits } from '../protocol/resp-request-parser.ts';
import { commandText } from './command-text.ts';

const CONFIRMATIONS = new Set(['subscribe', 'psubscribe', 'ssubscribe', 'unsubscribe', 'punsubscribe', 'sunsubscribe']);
const MESSAGES = new Set(['message', 'pmessage', 'smessage']);
const MONITOR_LINE = /^\d+\.\d+ \[/;

/** Names whose replies change how the connection is read (afterReply). */
const AFTER_REPLY_NAMES = new Set(['monitor', 'reset']);
/** Names whose commands change how the connection is read (learnIdentity). */
const IDENTITY_NAMES = new Set(['client', 'hello', 'subscribe', 'psubscribe', 'ssubscribe']);

export interface RecorderHooks {
  /** Called with the estimated bytes the record grew by; false: the session is full, stop recording. */
  grow(bytes: number, commands: number): boolean;
  /** Why the session stopped recording, for the note. */
  fullReason(): string;
}

export class ConnectionRecorder {
  readonly record: ObservedRecord;
  private readonly requests: RespRequestParser;
  private readonly replies = new RespReplyParser();
  /** Commands sent whose replies are due, oldest at waitingHead; whether each reply is recorded (not after a recording cut). */
  private waiting: ParsedCommand[] = [];
  private waitingRecorded: boolean[] = [];
  private waitingHead = 0;
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
    this.record = {
      ...record, protocol: 2, commands: [], commandBytes: [], outcomes: [], replyBytes: [], fromClient: [], toServer: [], fromServer: [], toClient: [],
      pushes: [], pushCount: 0, notes: [], kernelTcp: null, closed: false,
    };
    this.requests = new RespRequestParser(limits);
  }

  private micros(at: bigint): number {
    if (this.t0 === null) {
      this.t0 = at;
      this.record.startedAt = new Date().toISOString();
    }
    return Math.max(0, Math.round(Number(at - this.t0) / 1000));
  }

  private get recording(): boolean {
    return this.cutAt === null && !this.pairingStopped;
  }

  /**
   * A chunk from the client, at `at` (hrtime ns), before it is forwarded. Returns the commands it
   * completed (what its forwarding carries), or the protocol error that must close the connection.
   */
  fromClient(chunk: Buffer, at: bigint): { commands: number } | { error: string } {
    const parsed = this.requests.feed(chunk);
    if (parsed.error) {
      this.note(`closed by Pipescope: ${parsed.error}; nothing of that chunk was forwarded`);
      return { error: parsed.error };
    }
    const atUs = this.micros(at);
    let recorded = 0;
    let grown = 64;
    for (const command of parsed.commands) {
      const keep = this.recording;
      this.waiting.push(command);
      this.waitingRecorded.push(keep);
      if (keep) {
        const text = (command.text ??= commandText(command));
        this.record.commands.push(text);
        this.record.commandBytes.push(command.bytes);
        grown += text.length * 2 + 32;
        recorded++;
      }
      if (IDENTITY_NAMES.has(command.name)) this.learnIdentity(command);
    }
    if (this.cutAt === null || recorded > 0) this.record.fromClient.push({ atUs, bytes: chunk.length, commands: recorded, head: parsed.head });
    if (!this.hooks.grow(grown, recorded)) this.cut(this.hooks.fullReason());
    return { commands: recorded };
  }

  /** The proxy wrote a client chunk on to Redis (`commands`: what fromClient returned for it). */
  toServer(bytes: number, commands: number, at: bigint, head: string | undefined): void {
    if (this.cutAt !== null && commands === 0 && this.allAnswered()) return;
    this.record.toServer.push({ atUs: this.micros(at), bytes, commands, ...(head === undefined ? {} : { head }) });
  }

  /** A chunk from Redis, before it is forwarded: its frames paired. Returns the replies it completed, or the error. */
  fromServer(chunk: Buffer, at: bigint): { replies: number; head: string } | { error: string } {
    const { frames, error } = this.replies.feed(chunk);
    const atUs = this.micros(at);
    let replies = 0;
    let secret = false;
    for (const frame of frames) {
      const paired = this.pair(frame, atUs);
      if (paired === 'reply') replies++;
      if (paired === 'secret') {
        replies++;
        secret = true;
      }
    }
    const head = secret ? REDACTED : escapeBytes(chunk, HEAD_BYTES);
    if (replies > 0 || !this.allAnswered() || this.cutAt === null) this.record.fromServer.push({ atUs, bytes: chunk.length, replies, head });
    if (error) {
      this.note(`closed by Pipescope: ${error}`);
      return { error };
    }
    return { replies, head };
  }

  /** The proxy wrote a Redis chunk on to the client. */
  toClient(bytes: number, replies: number, at: bigint, head: string): void {
    if (this.cutAt !== null && replies === 0 && this.allAnswered()) return;
    this.record.toClient.push({ atUs: this.micros(at), bytes, replies, head });
  }

  closed(): void {
    this.record.closed = true;
  }

  /** MONITOR is on for this connection from now on, with Redis's clock on ours. */
  startMonitor(clock: { offsetUs: number; uncertaintyUs: number; samples: number }): void {
    this.record.monitor ??= { clock, executions: [], fromCommand: this.record.commands.length };
  }

  /** A MONITOR line of this connection: Redis ran `name` at `atEpochUs` (its clock). */
  execution(atEpochUs: number, name: string): void {
    const monitor = this.record.monitor;
    if (!monitor || this.t0 === null || monitor.executions.length >= this.record.commands.length) return;
    monitor.executions.push({ atUs: atEpochUs - monitor.clock.offsetUs - Number(this.t0 / 1000n), name: name.slice(0, 32) });
  }

  setKernelTcp(kernelTcp: KernelTcp): void {
    this.record.kernelTcp = kernelTcp;
  }

  note(text: string): void {
    if (this.record.notes.length < 20) this.record.notes.push(text);
  }

  /** Stops recording new commands (the session is full); replies to those already recorded still are. */
  cut(reason: string): void {
    if (this.cutAt !== null) return;
    this.cutAt = this.record.commands.length;
    this.note(`recording stopped after ${this.cutAt.toLocaleString('en-US')} commands: ${reason}; the connection is still forwarded`);
  }

  private allAnswered(): boolean {
    return this.record.outcomes.length >= this.record.commands.length;
  }

  /** CLIENT SETINFO, CLIENT SETNAME, HELLO [SETNAME], MONITOR, CLIENT REPLY: what changes how to read the connection. */
  private learnIdentity(command: ParsedCommand): void {
    const word = (i: number) => command.args[i]?.toString('utf8') ?? '';
    const name = word(0).toUpperCase();
    const sub = word(1).toUpperCase();
    if (name === 'CLIENT' && sub === 'SETINFO') {
      const attribute = word(2).toUpperCase();
      if (attribute === 'LIB-NAME') this.record.libName = word(3).slice(0, 128);
      if (attribute === 'LIB-VER') this.record.libVersion = word(3).slice(0, 128);
    } else if (name === 'CLIENT' && sub === 'SETNAME') {
      this.record.clientName = word(2).slice(0, 128);
    } else if (name === 'HELLO') {
      for (let i = 2; i < command.args.length; i++) if (word(i).toUpperCase() === 'SETNAME') this.record.clientName = word(i + 1).slice(0, 128);
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
    const head = this.waiting[this.waitingHead];
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
      this.record.pushCount++;
      if (this.record.pushes.length < MAX_KEPT_PUSHES && this.cutAt === null) {
        this.record.pushes.push({ atUs, bytes: frame.bytes, text: frameText(frame.value, 200) });
        this.hooks.grow(160, 0);
      }
      return 'push';
    }
    const waiting = head!;
    const recorded = this.waitingRecorded[this.waitingHead]!;
    // A subscribe command's first confirmation is its reply; one more comes for each of its other channels
    // (UNSUBSCRIBE without channels: one per subscription left, which each confirmation counts down).
    if (confirmation) this.extraConfirmations = waiting.args.length > 1 ? waiting.args.length - 2 : remainingCount(frame.value);
    this.waitingHead++;
    if (this.waitingHead > 1024 && this.waitingHead * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.waitingHead);
      this.waitingRecorded = this.waitingRecorded.slice(this.waitingHead);
      this.waitingHead = 0;
    }
    if (this.pendingHello || AFTER_REPLY_NAMES.has(waiting.name)) this.afterReply(waiting, frame);
    if (!recorded) return 'ignored';
    const secret = waiting.name === 'config' || waiting.name === 'acl' ? replyMayHoldSecret(waiting.args) : false;
    const outcome: Outcome = secret ? { reply: REDACTED } : (frame.outcome ??= outcomeOf(frame.value));
    this.record.outcomes.push(outcome);
    this.record.replyBytes.push(frame.bytes);
    return secret ? 'secret' : 'reply';
  }

  private afterReply(waiting: ParsedCommand, frame: ReplyFrame): void {
    if (waiting.name === 'monitor' && frame.value.kind === 'string') this.monitoring = true;
    if (this.pendingHello?.waiting === waiting) {
      if (frame.value.kind !== 'error') this.record.protocol = this.pendingHello.protocol;
      this.pendingHello = null;
    }
    if (waiting.name === 'reset') {
      this.monitoring = false;
      this.record.protocol = 2;
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

/** A frame as the trace stores a reply: strings, numbers and null as they are; aggregates as a short JSON text; errors. */
function outcomeOf(value: FrameValue): Outcome {
  if (value.kind === 'error') return { error: value.text };
  return { reply: previewValue(value) };
}

function previewValue(value: FrameValue): ReplyValue {
  if (value.kind === 'null') return null;
  if (value.kind === 'number') return typeof value.value === 'number' ? value.value : value.value;
  const text = frameText(value, REPLY_PREVIEW_CHARS);
  if (value.kind === 'string' && value.bytes > REPLY_PREVIEW_CHARS) return `${value.text.slice(0, REPLY_PREVIEW_CHARS)}… (${value.bytes} bytes)`;
  return text;
}
