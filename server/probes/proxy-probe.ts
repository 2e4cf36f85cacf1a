// Records what the delay proxy passes between the run and Redis, from t0 on: when each command's
// last byte was handed to Redis and when each reply's last byte came back from it. The proxy runs in
// this process, so its times share the client's clock; they become the trace's server-side hops.
import type { ReadEvent, WriteEvent } from '../../trace/format/trace-builder.ts';
import type { DelayProxy, ProxiedChunk } from './delay-proxy.ts';
import { RespFrameCounter } from '../protocol/resp-frame-counter.ts';
import type { RunClock } from '../support/monotonic-clock.ts';

export class ProxyProbe {
  private toServer: WriteEvent[] = [];
  private fromServer: ReadEvent[] = [];
  private readonly requests = new RespFrameCounter();
  private readonly replies = new RespFrameCounter();

  constructor(
    private readonly proxy: DelayProxy,
    private readonly clock: RunClock,
  ) {
    proxy.onChunk = (chunk, bytes) => this.record(chunk, bytes);
  }

  private record(chunk: ProxiedChunk, bytes: Buffer): void {
    if (chunk.direction === 'to-server') {
      this.toServer.push({ atUs: this.clock.micros(chunk.forwardedAt), bytes: chunk.bytes, commands: this.requests.feed(bytes) });
    } else {
      this.fromServer.push({ atUs: this.clock.micros(chunk.receivedAt), bytes: chunk.bytes, replies: this.replies.feed(bytes) });
    }
  }

  take(): { toServer: WriteEvent[]; fromServer: ReadEvent[] } {
    const taken = { toServer: this.toServer, fromServer: this.fromServer };
    this.toServer = [];
    this.fromServer = [];
    return taken;
  }

  detach(): void {
    this.proxy.onChunk = undefined;
  }
}
