// The two ways a run can put commands on its socket. ioredis (ioredis-driver.ts): the client library
// people use. raw (raw-driver.ts): a plain socket and pre-encoded bytes — what the protocol itself does
// (PING as the inline "PING\r\n" of the docs' netcat example). Both expose the socket, so the same
// probes measure them.
import type { Engine } from '../../trace/run-request.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { IoredisDriver, ioredisClientName } from './ioredis-driver.ts';
import { RawDriver, RAW_CLIENT } from './raw-driver.ts';
import type { RunDriver } from './run-driver.ts';

/** `pipelineSlice`: commands per slice of a long ioredis pipeline (see ioredis-driver.ts). */
export async function openDriver(engine: Engine, target: RedisTarget, name: string, { pipelineSlice }: { pipelineSlice?: number } = {}): Promise<RunDriver> {
  return engine === 'raw' ? RawDriver.open(target) : IoredisDriver.open(target, name, pipelineSlice);
}

/** Who writes the commands for an engine: the trace's recorder.client. */
export function driverClientName(engine: Engine): string {
  return engine === 'raw' ? RAW_CLIENT : ioredisClientName();
}
