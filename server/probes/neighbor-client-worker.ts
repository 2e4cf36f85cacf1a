// The neighbour client's worker thread, as source text (a Worker runs it with eval, like the memory
// sampler's, so it works from the TypeScript sources under test and from the build). It plays another
// application sharing the Redis: its own ioredis connection, straight to Redis, issuing one command at a
// time (each reply awaited, as an app doing reads would) on an absolute schedule: command k is due at
// start + k / ratePerSec. When a reply comes late, the next command goes at once, still one in flight:
// it catches up back-to-back, never with a burst of several outstanding. Being off the run's thread, it
// neither delays the run nor is delayed by the run's own event loop (a client encoding a huge pipeline).
//
// Times are process.hrtime.bigint() (process-wide monotonic, the run's clock) in ns, sent as offsets
// from `baseNs` in Float64Arrays. Waits under a few ms are Atomics.wait on the shared stop flag (a
// timer cannot sleep less than ~1 ms); longer ones are timers, so messages get through.
//
// Messages: worker → main {type:'ready', localAddress, localPort} | {type:'error', message}; main →
// worker {type:'go'} → {type:'warm'} once `warmCommands` replies are in or `warmMs` passed, whether or
// not a command is due (the baseline before t0); main sets stopFlag[0] = 1 (Atomics.notify wakes a wait) and sends {type:'stop'}
// → {type:'done', baseNs (decimal string), sent, replied (ns from baseNs), count, errors: [index, message][]}.
// At most maxCommands are sent: then it stops issuing (the cap bounds its memory and the trace).
export const NEIGHBOR_WORKER_SOURCE = String.raw`
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { Redis } = await import(workerData.ioredisUrl);
  const { url, redisOptions, command, key, valueBytes, ratePerSec, maxCommands, warmCommands, warmMs, stopFlag } = workerData;
  const flag = new Int32Array(stopFlag);
  const stopping = () => Atomics.load(flag, 0) !== 0;
  const connection = new Redis(url, { ...redisOptions, retryStrategy: () => null });
  connection.on('error', () => {});
  try {
    await connection.connect();
    if (command === 'GET') await connection.set(key, Buffer.alloc(valueBytes, 120));
  } catch (error) {
    parentPort.postMessage({ type: 'error', message: error.message });
    return;
  }
  const baseNs = process.hrtime.bigint();
  const now = () => Number(process.hrtime.bigint() - baseNs);
  const sent = new Float64Array(maxCommands);
  const replied = new Float64Array(maxCommands);
  const errors = [];
  let count = 0;
  const issue = command === 'GET' ? () => connection.get(key) : () => connection.incr(key);
  let stopMessage;
  const stopped = new Promise((resolve) => (stopMessage = resolve));
  const run = async () => {
    const periodNs = 1e9 / ratePerSec;
    const start = now();
    let warm = false;
    while (!stopping() && count < maxCommands) {
      const due = start + count * periodNs;
      for (let at = now(); at < due && !stopping(); at = now()) {
        // The baseline is in once warmMs have passed, even while waiting for a slow rate's next command.
        if (!warm && at - start >= warmMs * 1e6) {
          warm = true;
          parentPort.postMessage({ type: 'warm' });
        }
        const gapMs = (due - at) / 1e6;
        // At most a second per timer: a long wait is several (a timer cannot hold more than 2^31 ms).
        if (gapMs > 4) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, Math.floor(gapMs - 2))));
        else Atomics.wait(flag, 0, 0, gapMs);
      }
      if (stopping()) break;
      sent[count] = now();
      try {
        await issue();
      } catch (error) {
        errors.push([count, String(error && error.message || error)]);
      }
      replied[count] = now();
      count++;
      if (!warm && (count >= warmCommands || now() - start >= warmMs * 1e6)) {
        warm = true;
        parentPort.postMessage({ type: 'warm' });
      }
    }
    if (!warm) parentPort.postMessage({ type: 'warm' });
  };
  const report = () => parentPort.postMessage({ type: 'done', baseNs: baseNs.toString(), sent, replied, count, errors }, [sent.buffer, replied.buffer]);
  let going = false;
  parentPort.on('message', (message) => {
    if (message.type === 'go') {
      going = true;
      run().then(() => stopped).then(() => {
        // The connection stays open until the main thread ends the worker, after the run's clean-up
        // has what it needs; the command in flight has answered by now, so nothing more reaches Redis.
        report();
      });
    } else if (message.type === 'stop') {
      if (going) stopMessage();
      else report(); // stopped before it began: nothing was sent
    }
  });
  parentPort.postMessage({ type: 'ready', localAddress: connection.stream.localAddress, localPort: connection.stream.localPort });
})();
`;
