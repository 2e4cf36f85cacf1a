// Runs against one Redis never overlap: one job runs at a time. Each job belongs to an owner (one
// WebSocket connection) and is named by owner and id together, so no owner can cancel another's job.
// Owners are served in turn (round-robin), each owner's own jobs first in, first out: a client that
// queues many requests delays everyone else by at most one of its requests per turn. Waiting jobs are
// told their position whenever it changes (0 = running now; k = k jobs will run before it).
export interface QueuedJob {
  /** Who asked: the connection's id. */
  owner: string;
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
  /** Waiting jobs by owner; the Map's order is the turn order (the next owner served comes first). */
  private readonly waiting = new Map<string, Entry[]>();
  private current: { entry: Entry; controller: AbortController } | undefined;
  private idle: Promise<void> = Promise.resolve();

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
    return (this.waiting.get(owner)?.length ?? 0) + (this.current?.entry.job.owner === owner ? 1 : 0);
  }

  enqueue(job: QueuedJob): void {
    const entries = this.waiting.get(job.owner);
    if (entries) entries.push({ job });
    else this.addOwner(job.owner, { job });
    if (this.current) this.announcePositions();
    else this.idle = this.pump(); // announces position 0 as the job starts
  }

  /** 'aborted': the running job was told to stop; 'removed': it had not started and never will. */
  cancel(owner: string, id: string): 'aborted' | 'removed' | null {
    if (this.current?.entry.job.owner === owner && this.current.entry.job.id === id) {
      this.current.controller.abort();
      return 'aborted';
    }
    const entries = this.waiting.get(owner);
    const index = entries?.findIndex((entry) => entry.job.id === id) ?? -1;
    if (!entries || index === -1) return null;
    entries.splice(index, 1);
    if (entries.length === 0) this.waiting.delete(owner);
    this.announcePositions();
    return 'removed';
  }

  /** Cancels every job of the owner (its connection closed). */
  cancelOwner(owner: string): void {
    const hadWaiting = this.waiting.delete(owner);
    if (this.current?.entry.job.owner === owner) this.current.controller.abort();
    if (hadWaiting) this.announcePositions();
  }

  /** Resolves when no job is running or waiting. */
  async drained(): Promise<void> {
    while (this.current || this.waiting.size) await this.idle;
  }

  private async pump(): Promise<void> {
    for (let entry = this.takeNext(); entry; entry = this.takeNext()) {
      const controller = new AbortController();
      this.current = { entry, controller };
      this.announcePositions();
      try {
        await entry.job.run(controller.signal);
      } catch {
        // A job reports its own failure; the queue only keeps going.
      }
      this.current = undefined;
    }
  }

  /**
   * A new owner takes its turn after the owners already waiting, but before the owner whose job runs
   * now: that one has had its turn (it went to the back when its job started).
   */
  private addOwner(owner: string, entry: Entry): void {
    const runningOwner = this.current?.entry.job.owner;
    const owners = [...this.waiting.keys()];
    if (runningOwner === undefined || owners.at(-1) !== runningOwner) {
      this.waiting.set(owner, [entry]);
      return;
    }
    const last = this.waiting.get(runningOwner)!;
    this.waiting.delete(runningOwner);
    this.waiting.set(owner, [entry]);
    this.waiting.set(runningOwner, last);
  }

  /** The first owner's oldest job; that owner goes to the back of the turn order if it has more. */
  private takeNext(): Entry | undefined {
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    const [owner, entries] = first.value;
    const entry = entries.shift()!;
    this.waiting.delete(owner);
    if (entries.length > 0) this.waiting.set(owner, entries);
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

function tell(entry: Entry, position: number): void {
  if (entry.told === position) return;
  entry.told = position;
  entry.job.onPosition(position);
}
