import { describe, expect, it } from 'vitest';
import { RunQueue, type QueuedJob } from './run-queue.ts';
import { RequestTimeLimitError } from '../support/run-stopped-errors.ts';

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
function fakeJob(id: string, log: string[], owner = 'tab', commands = 10): FakeJob {
  let markStarted!: () => void;
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const job: FakeJob = {
    owner,
    id,
    commands,
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

  it('runs one owner\'s jobs one at a time, first in first out', async () => {
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

    expect(queue.cancel('tab', 'b')).toBe('removed');
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

    expect(queue.cancel('tab', 'a')).toBe('aborted');
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
    expect(queue.cancel('tab', 'nope')).toBeNull();
    const a = fakeJob('a', log);
    queue.enqueue(a);
    a.finish();
    await queue.drained();
    expect(queue.cancel('tab', 'a')).toBeNull();
  });

  it('a job that fails, or throws before returning a promise, does not stop the queue', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const a = fakeJob('a', log);
    const throwing: QueuedJob = {
      owner: 'tab',
      id: 'sync',
      commands: 1,
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

describe('RunQueue between owners', () => {
  it('serves owners in turn: a client with many requests waits its turn like everyone else', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const flood = ['f1', 'f2', 'f3', 'f4'].map((id) => fakeJob(id, log, 'flooder'));
    for (const job of flood) queue.enqueue(job);
    const other = fakeJob('o1', log, 'other');
    queue.enqueue(other);
    // f1 runs; o1 comes before f2, though it arrived after all four.
    expect(other.positions).toEqual([1]);
    expect(flood.map((j) => j.positions.at(-1))).toEqual([0, 2, 3, 4]);
    const late = fakeJob('l1', log, 'late');
    queue.enqueue(late);
    expect(late.positions).toEqual([2]); // after o1, before f2
    expect(flood[1]!.positions.at(-1)).toBe(3);
    for (const job of [flood[0]!, other, late, ...flood.slice(1)]) {
      await job.started;
      job.finish();
    }
    await queue.drained();
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start f1', 'start o1', 'start l1', 'start f2', 'start f3', 'start f4']);
  });

  it('alternates between two owners that both queue several requests', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const jobs = [fakeJob('a1', log, 'a'), fakeJob('a2', log, 'a'), fakeJob('a3', log, 'a'), fakeJob('b1', log, 'b'), fakeJob('b2', log, 'b')];
    for (const job of jobs) queue.enqueue(job);
    expect(jobs.map((j) => j.positions.at(-1))).toEqual([0, 2, 4, 1, 3]);
    for (const id of ['a1', 'b1', 'a2', 'b2', 'a3']) {
      const job = jobs.find((j) => j.id === id)!;
      await job.started;
      job.finish();
    }
    await queue.drained();
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start a1', 'start b1', 'start a2', 'start b2', 'start a3']);
  });

  it('one owner cannot cancel another owner\'s job that has the same id', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const mine = fakeJob('x', log, 'alice');
    const theirs = fakeJob('x', log, 'mallory');
    queue.enqueue(mine);
    queue.enqueue(theirs);
    expect(queue.cancel('mallory', 'x')).toBe('removed'); // mallory's own waiting x, not alice's running x
    expect(mine.signal?.aborted).toBe(false);
    expect(queue.cancel('eve', 'x')).toBeNull();
    expect(mine.signal?.aborted).toBe(false);
    mine.finish();
    await queue.drained();
    expect(theirs.signal).toBeUndefined();
  });

  it('cancelOwner removes the owner\'s waiting jobs and aborts its running one, and no one else\'s', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const [a1, a2, b1] = [fakeJob('1', log, 'a'), fakeJob('2', log, 'a'), fakeJob('1', log, 'b')] as [FakeJob, FakeJob, FakeJob];
    queue.enqueue(a1);
    queue.enqueue(b1);
    queue.enqueue(a2);
    queue.cancelOwner('a');
    expect(a1.signal?.aborted).toBe(true);
    await b1.started;
    expect(b1.positions.at(-1)).toBe(0);
    b1.finish();
    await queue.drained();
    expect(a2.signal).toBeUndefined();
  });

  it('counts each owner\'s jobs and the commands of all jobs, running included', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const jobs = [fakeJob('1', log, 'a', 100), fakeJob('2', log, 'a', 20), fakeJob('1', log, 'b', 3)];
    for (const job of jobs) queue.enqueue(job);
    expect([queue.jobsOf('a'), queue.jobsOf('b'), queue.jobsOf('c')]).toEqual([2, 1, 0]);
    expect(queue.queuedCommands).toBe(123);
    jobs[0]!.finish();
    await jobs[2]!.started;
    expect([queue.jobsOf('a'), queue.queuedCommands]).toEqual([1, 23]);
    jobs[2]!.finish();
    await jobs[1]!.started;
    jobs[1]!.finish();
    await queue.drained();
    expect(queue.queuedCommands).toBe(0);
  });

  it('takes turns by group (a client\'s address), however many owners (connections) it has', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const grouped = (id: string, owner: string, group: string) => Object.assign(fakeJob(id, log, owner), { group });
    const running = grouped('r', 'script-1', '10.0.0.9');
    const flood = ['script-2', 'script-3', 'script-4'].map((owner, i) => grouped(`f${i}`, owner, '10.0.0.9'));
    const other = grouped('o', 'laptop', '10.0.0.5');
    for (const job of [running, ...flood, other]) queue.enqueue(job);
    expect(other.positions.at(-1)).toBe(1); // before the flooder's other connections: their address had its turn
    expect([queue.jobsOfGroup('10.0.0.9'), queue.jobsOfGroup('10.0.0.5'), queue.jobsOf('script-2')]).toEqual([4, 1, 1]);
    for (const job of [running, other, ...flood]) {
      await job.started;
      job.finish();
    }
    await queue.drained();
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start r', 'start o', 'start f0', 'start f1', 'start f2']);
  });

  it('stops a job at its time limit, its signal saying why, and goes on with the next', async () => {
    const log: string[] = [];
    const queue = new RunQueue();
    const slow = Object.assign(fakeJob('slow', log), { maxMs: 30, limitMessage: 'stopped after 30 ms' });
    const next = fakeJob('next', log, 'other');
    queue.enqueue(slow);
    queue.enqueue(next);
    await next.started;
    expect(slow.signal?.reason).toBeInstanceOf(RequestTimeLimitError);
    expect((slow.signal?.reason as Error).message).toBe('stopped after 30 ms');
    next.finish();
    await queue.drained();
  });
});
