import { describe, expect, it } from 'vitest';
import { RunQueue, type QueuedJob } from './run-queue.ts';

interface FakeJob extends QueuedJob {
  /** Every position announced, in order. */
  positions: number[];
  /** Resolves when the queue starts the job. */
  started: Promise<void>;
  /** Lets the running job end normally, or with an error. */
  finish(): void;
  fail(error: Error): void;
  signal: AbortSignal | undefined;
}

/** A job that runs until told to finish, or until its signal aborts; `log` records starts and ends. */
function fakeJob(id: string, log: string[]): FakeJob {
  let markStarted!: () => void;
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const job: FakeJob = {
    id,
    positions: [],
    started: new Promise<void>((res) => (markStarted = res)),
    signal: undefined,
    finish: resolve,
    fail: reject,
    onPosition: (position) => job.positions.push(position),
    run: async (signal) => {
      job.signal = signal;
      log.push(`start ${id}`);
      markStarted();
      signal.addEventListener('abort', () => reject(new Error('aborted')));
      try {
        await done;
      } finally {
        log.push(`end ${id}`);
      }
    },
  };
  return job;
}

/** The positions a job was told, repeats of the same position in a row counted once. */
const distinct = (positions: number[]) => positions.filter((p, i) => p !== positions[i - 1]);

describe('RunQueue', () => {
  it('starts the first job at once, at position 0', () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const a = fakeJob('a', log);
    queue.enqueue(a);
    expect(log).toEqual(['start a']);
    expect(a.positions).toEqual([0]); // told once, not once on arrival and again on start
    expect(queue.length).toBe(1);
  });

  it('tells waiting jobs how many requests are ahead, and moves them up as jobs finish', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const [a, b, c] = ['a', 'b', 'c'].map((id) => fakeJob(id, log)) as [FakeJob, FakeJob, FakeJob];
    queue.enqueue(a);
    queue.enqueue(b);
    queue.enqueue(c);
    expect(b.positions).toEqual([1]);
    expect(c.positions).toEqual([2]);
    expect(queue.length).toBe(3);

    a.finish();
    await b.started;
    expect(b.positions.at(-1)).toBe(0);
    expect(c.positions.at(-1)).toBe(1);

    b.finish();
    await c.started;
    c.finish();
    await queue.drained();
    expect(distinct(b.positions)).toEqual([1, 0]);
    expect(distinct(c.positions)).toEqual([2, 1, 0]);
  });

  it('runs jobs one at a time, first in first out', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const jobs = ['a', 'b', 'c', 'd'].map((id) => fakeJob(id, log));
    for (const job of jobs) queue.enqueue(job);
    for (const job of jobs) {
      await job.started;
      job.finish();
    }
    await queue.drained();
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c', 'start d', 'end d']);
  });

  it("cancelling a waiting job removes it, never runs it, and moves the ones behind it up", async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const [a, b, c] = ['a', 'b', 'c'].map((id) => fakeJob(id, log)) as [FakeJob, FakeJob, FakeJob];
    queue.enqueue(a);
    queue.enqueue(b);
    queue.enqueue(c);

    expect(queue.cancel('b')).toBe('removed');
    expect(c.positions.at(-1)).toBe(1);
    expect(a.positions.at(-1)).toBe(0);
    expect(queue.length).toBe(2);

    a.finish();
    await c.started;
    c.finish();
    await queue.drained();
    expect(log).toEqual(['start a', 'end a', 'start c', 'end c']);
    expect(b.signal).toBeUndefined();
  });

  it("cancelling the running job aborts its signal, and the next one starts", async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const [a, b] = ['a', 'b'].map((id) => fakeJob(id, log)) as [FakeJob, FakeJob];
    queue.enqueue(a);
    queue.enqueue(b);
    expect(a.signal?.aborted).toBe(false);

    expect(queue.cancel('a')).toBe('aborted');
    expect(a.signal?.aborted).toBe(true);

    await b.started;
    expect(b.signal?.aborted).toBe(false);
    b.finish();
    await queue.drained();
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('cancelling an unknown or finished job returns null', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    expect(queue.cancel('nope')).toBeNull();
    const a = fakeJob('a', log);
    queue.enqueue(a);
    a.finish();
    await queue.drained();
    expect(queue.cancel('a')).toBeNull();
  });

  it('a job that fails, or throws before returning a promise, does not stop the queue', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const a = fakeJob('a', log);
    const throwing: QueuedJob = {
      id: 'sync',
      onPosition: () => {},
      run: () => {
        log.push('start sync');
        throw new Error('boom');
      },
    };
    const c = fakeJob('c', log);
    queue.enqueue(a);
    queue.enqueue(throwing);
    queue.enqueue(c);
    a.fail(new Error('Run failed'));
    await c.started;
    c.finish();
    await queue.drained();
    expect(log).toEqual(['start a', 'end a', 'start sync', 'start c', 'end c']);
    expect(queue.length).toBe(0);
  });

  it('drained() waits for every job, including ones enqueued while it waits', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const [a, b] = ['a', 'b'].map((id) => fakeJob(id, log)) as [FakeJob, FakeJob];
    queue.enqueue(a);
    const drained = queue.drained().then(() => [...log]);
    queue.enqueue(b);
    a.finish();
    await b.started;
    b.finish();
    expect(await drained).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('drained() resolves at once for an idle queue, and the queue starts again afterwards', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    await queue.drained();
    const a = fakeJob('a', log);
    queue.enqueue(a);
    expect(log).toEqual(['start a']);
    a.finish();
    await queue.drained();
    expect(queue.length).toBe(0);
  });
});
