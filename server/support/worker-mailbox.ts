// The replies of a probe's worker thread, in order, for the one caller that awaits them at a time: the
// memory sampler and the neighbour client both talk to their worker this way. A worker that fails or
// exits becomes one last reply, { type: 'error', message }, so whoever waits learns why.
import type { Worker } from 'node:worker_threads';

export type WorkerError = { type: 'error'; message: string };

export class WorkerMailbox<Reply extends { type: string }> {
  private readonly replies: (Reply | WorkerError)[] = [];
  private waiting: ((reply: Reply | WorkerError) => void) | undefined;

  /** Listens to `worker`; `stoppedMessage` is the error reply when it exits (e.g. "the memory sampler stopped"). */
  constructor(worker: Worker, stoppedMessage: string) {
    worker.on('message', (reply: Reply) => this.receive(reply));
    worker.on('error', (error) => this.receive({ type: 'error', message: error.message }));
    worker.on('exit', () => this.receive({ type: 'error', message: stoppedMessage }));
  }

  /** The next reply: one already received, or the next to arrive. */
  next(): Promise<Reply | WorkerError> {
    const queued = this.replies.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiting = resolve));
  }

  /** Hands a reply to whoever waits for one, or keeps it for the next next(). */
  private receive(reply: Reply | WorkerError): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(reply);
    else this.replies.push(reply);
  }
}
