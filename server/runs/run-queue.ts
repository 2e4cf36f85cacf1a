// Runs against one Redis never overlap: requests wait in a FIFO queue and are told their position
// whenever it changes (0 = running now). Cancelling removes a waiting job or aborts the running one.
export interface QueuedJob {
  id: string;
  run(signal: AbortSignal): Promise<void>;
  onPosition(position: number): void;
}

export class RunQueue {
  private readonly waiting: QueuedJob[] = [];
  private current: { job: QueuedJob; controller: AbortController } | undefined;
  private idle: Promise<void> = Promise.resolve();

  get length(): number {
    return this.waiting.length + (this.current ? 1 : 0);
  }

  enqueue(job: QueuedJob): void {
    this.waiting.push(job);
    if (this.current) job.onPosition(this.length - 1);
    else this.idle = this.pump(); // announces position 0 as the job starts
  }

  /** 'aborted': the running job was told to stop; 'removed': it had not started and never will. */
  cancel(jobId: string): 'aborted' | 'removed' | null {
    if (this.current?.job.id === jobId) {
      this.current.controller.abort();
      return 'aborted';
    }
    const index = this.waiting.findIndex((job) => job.id === jobId);
    if (index === -1) return null;
    this.waiting.splice(index, 1);
    this.announcePositions();
    return 'removed';
  }

  /** Resolves when no job is running or waiting. */
  async drained(): Promise<void> {
    while (this.current || this.waiting.length) await this.idle;
  }

  private async pump(): Promise<void> {
    for (let job = this.waiting.shift(); job; job = this.waiting.shift()) {
      const controller = new AbortController();
      this.current = { job, controller };
      this.announcePositions();
      try {
        await job.run(controller.signal);
      } catch {
        // A job reports its own failure; the queue only keeps going.
      }
      this.current = undefined;
    }
  }

  private announcePositions(): void {
    const offset = this.current ? 1 : 0;
    if (this.current) this.current.job.onPosition(0);
    this.waiting.forEach((job, index) => job.onPosition(index + offset));
  }
}
