// Runs against one Redis never overlap: one job runs at a time. Each job belongs to an owner (one
// WebSocket connection) and is named by owner and id together, so no owner can cancel another's job.
// Turns go by group (the client's address; by default the owner itself), round-robin, each group's own
// jobs first in, first out: a client that queues many requests, from as many connections as it likes,
// delays everyone else by at most one of its requests per turn. A job may be given a time limit
// (maxMs): it is stopped then, its signal aborted with a RequestTimeLimitError that says so. Waiting
// jobs are told their position whenever it changes (0 = running now; k = k jobs will run before it).
import { RequestTimeLimitError } from '../support/run-stopped-errors.ts';
import { backgroundCount, backgroundSettled } from './background-work.ts';

export interface QueuedJob {
  /** Who asked: the connection's id. */
  owner: string;
  /** Whose turn it takes: the client's address (default: the owner). */
  group?: string;
  /** Stopped after this long (ms) from its start; `limitMessage` says why (default: none). */
  maxMs?: number;
  limitMessage?: string;
  /** Unique among the owner's own jobs only. */
  id: string;
  /** The most commands the job may send: its share of the queue's work (see queuedCommands). */
  commands: number;
  run(signal: AbortSignal): Promise<void>;
  onPosition(position: number): void;
}

interface Entry {
  job: QueuedJob;
  /** The last position the job was told; undefined before the first. */
  told?: number;
}

export class RunQueue {
  /** Waiting jobs by group; the Map's order is the turn order (the next group served comes first). */
  private readonly waiting = new Map<string, Entry[]>();
  private current: { entry: Entry; controller: AbortController } | undefined;
  private idle: Promise<void> = Promise.resolve();
  /** True from a job's start until the queue is empty (also while the last job's clean-up ends). */
  private pumping = false;

  /** Jobs waiting or running. */
  get length(): number {
    let waiting = 0;
    for (const entries of this.waiting.values()) waiting += entries.length;
    return waiting + (this.current ? 1 : 0);
  }

  /** Commands of every job waiting or running (the running job counted whole). */
  get queuedCommands(): number {
    let sum = this.current?.entry.job.commands ?? 0;
    for (const entries of this.waiting.values()) for (const { job } of entries) sum += job.commands;
    return sum;
  }

  /** The owner's jobs waiting or running. */
  jobsOf(owner: string): number {
    let count = this.current?.entry.job.owner === owner ? 1 : 0;
    for (const entries of this.waiting.values()) for (const { job } of entries) if (job.owner === owner) count++;
    return count;
  }

  /** The group's jobs waiting or running (all its owners'). */
  jobsOfGroup(group: string): number {
    return (this.waiting.get(group)?.length ?? 0) + (this.current && groupOf(this.current.entry.job) === group ? 1 : 0);
  }

  enqueue(job: QueuedJob): void {
    const group = groupOf(job);
    const entries = this.waiting.get(group);
    if (entries) entries.push({ job });
    else this.addGroup(group, { job });
    if (this.pumping) this.announcePositions();
    else this.idle = this.pump(); // announces position 0 as the job starts
  }

  /** 'aborted': the running job was told to stop; 'removed': it had not started and never will. */
  cancel(owner: string, id: string): 'aborted' | 'removed' | null {
    if (this.current?.entry.job.owner === owner && this.current.entry.job.id === id) {
      this.current.controller.abort();
      return 'aborted';
    }
    for (const [group, entries] of this.waiting) {
      const index = entries.findIndex((entry) => entry.job.owner === owner && entry.job.id === id);
      if (index === -1) continue;
      entries.splice(index, 1);
      if (entries.length === 0) this.waiting.delete(group);
      this.announcePositions();
      return 'removed';
    }
    return null;
  }

  /** Cancels every job of the owner (its connection closed). */
  cancelOwner(owner: string): void {
    let hadWaiting = false;
    for (const [group, entries] of this.waiting) {
      const kept = entries.filter((entry) => entry.job.owner !== owner);
      if (kept.length === entries.length) continue;
      hadWaiting = true;
      if (kept.length === 0) this.waiting.delete(group);
      else this.waiting.set(group, kept);
    }
    if (this.current?.entry.job.owner === owner) this.current.controller.abort();
    if (hadWaiting) this.announcePositions();
  }

  /** Resolves when no job is running or waiting. */
  async drained(): Promise<void> {
    while (this.pumping || this.waiting.size) await this.idle;
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    for (;;) {
      // The previous run's clean-up, carried on after it answered, ends (bounded) before the next job
      // starts, so it never counts against the next job's time; the waiting jobs can still be cancelled.
      if (backgroundCount() > 0) await backgroundSettled();
      const entry = this.takeNext();
      if (!entry) break;
      const controller = new AbortController();
      this.current = { entry, controller };
      this.announcePositions();
      const { maxMs, limitMessage } = entry.job;
      const limit = maxMs === undefined ? undefined
        : setTimeout(() => controller.abort(new RequestTimeLimitError(limitMessage ?? `stopped after ${maxMs} ms, the most a request may run`)), maxMs);
      try {
        await entry.job.run(controller.signal);
      } catch {
        // A job reports its own failure; the queue only keeps going.
      } finally {
        clearTimeout(limit);
      }
      this.current = undefined;
    }
    this.pumping = false;
  }

  /**
   * A new group takes its turn after the groups already waiting, but before the group whose job runs
   * now: that one has had its turn (it went to the back when its job started).
   */
  private addGroup(group: string, entry: Entry): void {
    const runningGroup = this.current && groupOf(this.current.entry.job);
    const groups = [...this.waiting.keys()];
    if (runningGroup === undefined || groups.at(-1) !== runningGroup) {
      this.waiting.set(group, [entry]);
      return;
    }
    const last = this.waiting.get(runningGroup)!;
    this.waiting.delete(runningGroup);
    this.waiting.set(group, [entry]);
    this.waiting.set(runningGroup, last);
  }

  /** The first group's oldest job; that group goes to the back of the turn order if it has more. */
  private takeNext(): Entry | undefined {
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    const [group, entries] = first.value;
    const entry = entries.shift()!;
    this.waiting.delete(group);
    if (entries.length > 0) this.waiting.set(group, entries);
    return entry;
  }

  /** The waiting jobs in the order they will run: round by round, owners in turn order. */
  private runOrder(): Entry[] {
    const lists = [...this.waiting.values()];
    const total = lists.reduce((n, list) => n + list.length, 0);
    const order: Entry[] = [];
    for (let round = 0; order.length < total; round++) {
      for (const list of lists) if (round < list.length) order.push(list[round]!);
    }
    return order;
  }

  /** Tells each job its position, when it differs from what it was last told. */
  private announcePositions(): void {
    const offset = this.current ? 1 : 0;
    if (this.current) tell(this.current.entry, 0);
    this.runOrder().forEach((entry, index) => tell(entry, index + offset));
  }
}

function groupOf(job: QueuedJob): string {
  return job.group ?? job.owner;
}

function tell(entry: Entry, position: number): void {
  if (entry.told === position) return;
  entry.told = position;
  entry.job.onPosition(position);
}
