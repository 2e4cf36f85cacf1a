// The three ways a run can put commands on its socket. ioredis (ioredis-driver.ts) and node-redis
// (node-redis-driver.ts): the client libraries people use. raw (raw-driver.ts): a plain socket and
// pre-encoded bytes — what the protocol itself does (PING as the inline "PING\r\n" of the docs'
// netcat example). All expose the socket, so the same probes measure them.
import type { Engine } from '../../trace/format/run-request.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { IoredisDriver, ioredisClientName } from './ioredis-driver.ts';
import { NodeRedisDriver, nodeRedisClientName } from './node-redis-driver.ts';
import { RawDriver, RAW_CLIENT } from './raw-driver.ts';
import type { RunDriver } from './run-driver.ts';

/** `pipelineSlice`: commands per slice of a long ioredis pipeline (see ioredis-driver.ts). */
export async function openDriver(engine: Engine, target: RedisTarget, name: string, { pipelineSlice }: { pipelineSlice?: number } = {}): Promise<RunDriver> {
  switch (engine) {
    case 'raw':
      return RawDriver.open(target, name);
    case 'node-redis':
      return NodeRedisDriver.open(target, name);
    case 'ioredis':
      return IoredisDriver.open(target, name, pipelineSlice);
  }
}

/** Who writes the commands for an engine: the trace's recorder.client. */
export function driverClientName(engine: Engine): string {
  switch (engine) {
    case 'raw':
      return RAW_CLIENT;
    case 'node-redis':
      return nodeRedisClientName();
    case 'ioredis':
      return ioredisClientName();
  }
}
