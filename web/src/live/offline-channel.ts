// The static site's channel (npm run build:static): the same port the stores and the page use, with no
// backend behind it. It never constructs a WebSocket, so a page on a static host makes no connection
// attempts, shows no reconnect banner and logs nothing; anything sent is refused (send returns false),
// which the stores already treat as "not connected". Its status is fixed: closed, no backend, no Redis.
import type { ClientMessage } from '../../../trace/protocol/live-protocol.ts';
import type { ChannelStatus, LiveListener, PageChannel } from './live-channel.ts';

const OFFLINE_STATUS: ChannelStatus = {
  connection: { status: 'closed', attempt: 0, retryAt: Number.POSITIVE_INFINITY, reason: 'a static site has no backend' },
  backendVersion: null,
  redis: null,
};

export class OfflineChannel implements PageChannel {
  readonly isOpen = false;
  readonly subscribe = (_listener: () => void): (() => void) => () => {};
  readonly getSnapshot = (): ChannelStatus => OFFLINE_STATUS;

  start(): void {}
  stop(): void {}
  retryNow(): void {}

  /** Nothing is sent: there is no backend. */
  send(_message: ClientMessage): boolean {
    return false;
  }

  /** The listener is kept by nobody: no message or connection change ever comes. */
  listen(_listener: LiveListener): () => void {
    return () => {};
  }
}
