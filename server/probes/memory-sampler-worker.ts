// The memory sampler's worker thread, as source text (a Worker runs it with eval, so the same code
// works from the TypeScript sources under test and from the build). It owns its own Redis connection
// and asks CLIENT LIST ID <run> + INFO memory as one pipelined write every intervalMs, the next only
// once the last has answered, time-stamping each reply on the process's monotonic clock (the same
// clock as the run's t0: process.hrtime is process-wide). Being off the run's thread, it neither
// delays the run nor stops sampling while the run's thread is busy encoding a huge pipeline.
//
// Messages: worker → main {type:'ready', address (its connection's local address:port, as MONITOR names it)} | {type:'error', message}; main → worker {type:'start',
// runClientId} → {type:'first'} once the baseline sample is in (early in the run's set-up); main →
// worker {type:'go'} just before t0: sampling every intervalMs from then on; main → worker
// {type:'stop'} → {type:'done', samples: [{atNs (decimal string), list, usedMemory}], requests (those
// answered after 'go': the ones between the run's INFO snapshots), failure?}.
export const MEMORY_WORKER_SOURCE = String.raw`
(async () => {
  const { parentPort, workerData } = await import('node:worker_threads');
  const { Redis } = await import(workerData.ioredisUrl);
  const { url, redisOptions, intervalMs } = workerData;
  const connection = new Redis(url, { ...redisOptions, retryStrategy: () => null });
  connection.on('error', () => {});
  try {
    await connection.connect();
  } catch (error) {
    parentPort.postMessage({ type: 'error', message: error.message });
    return;
  }
  const samples = [];
  let requests = 0;
  let going = false;
  let failure;
  let runClientId = 0;
  let timer;
  let inFlight;
  let stopped = false;
  const ask = async () => {
    try {
      const results = await connection.pipeline().client('LIST', 'ID', String(runClientId)).info('memory').exec();
      const atNs = process.hrtime.bigint().toString();
      if (going) requests++;
      const [[listError, list], [infoError, info]] = results;
      if (listError || infoError) throw listError || infoError;
      const used = /(?:^|\r\n)used_memory:(\d+)/.exec(String(info));
      samples.push({ atNs, list: String(list), usedMemory: used ? Number(used[1]) : NaN });
    } catch (error) {
      failure = error.message;
    }
  };
  const tick = () => {
    if (stopped) return;
    if (!inFlight && !failure) inFlight = ask().finally(() => (inFlight = undefined));
    timer = setTimeout(tick, intervalMs);
  };
  parentPort.on('message', async (message) => {
    if (message.type === 'start') {
      runClientId = message.runClientId;
      await ask();
      parentPort.postMessage({ type: 'first' });
    } else if (message.type === 'go') {
      going = true;
      timer = setTimeout(tick, intervalMs);
    } else if (message.type === 'stop') {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      // The connection stays open until the main thread ends the worker, after the run's last INFO
      // snapshot: Redis counts a read event for the close too, which would land in the run's counts.
      parentPort.postMessage({ type: 'done', samples, requests, failure });
    }
  });
  const stream = connection.stream;
  parentPort.postMessage({ type: 'ready', address: (stream && stream.localAddress || '') + ':' + (stream && stream.localPort || 0) });
})();
`;
