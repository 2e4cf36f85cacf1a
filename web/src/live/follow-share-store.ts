// The presenter's side of follow mode: asks the backend for a follow session on the page's connection,
// holds its code and how many follow, and sends the display state (state/follow-display.ts makes it)
// while sharing. The presenter's runs need nothing from here: the backend relays whatever this
// connection runs while it shares. A lost connection ends the session on the backend, so it ends here too.
import type { FollowDisplay } from '../../../trace/protocol/follow-protocol.ts';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import type { ChannelPort } from './live-channel.ts';

export interface ShareSnapshot {
  status: 'off' | 'starting' | 'sharing';
  /** The session's code while sharing. */
  code: string | null;
  followers: number;
  maxFollowers: number | null;
  /** Why sharing stopped or could not start; null when there is nothing to say. */
  message: string | null;
}

const OFF: ShareSnapshot = { status: 'off', code: null, followers: 0, maxFollowers: null, message: null };

export class FollowShareStore {
  private readonly state: SnapshotStore<ShareSnapshot>;
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => ShareSnapshot;

  constructor(
    private readonly channel: ChannelPort,
    scheduler: FrameScheduler = frameScheduler,
  ) {
    this.state = new SnapshotStore<ShareSnapshot>(OFF, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  get sharing(): boolean {
    return this.state.getSnapshot().status === 'sharing';
  }

  attach(): () => void {
    return this.channel.listen({
      onConnection: (connection) => {
        if (connection.status === 'closed' && this.state.getSnapshot().status !== 'off') {
          this.state.update({ ...OFF, message: 'Sharing stopped: the connection to the backend was lost, which ends the session. Share again for a new link.' });
        }
      },
      onMessage: (message) => this.receive(message),
    });
  }

  share(): void {
    if (this.state.getSnapshot().status !== 'off') return;
    if (!this.channel.send({ type: 'follow-start' })) {
      this.state.update({ message: 'Not connected to the backend: sharing needs the live connection.' });
      return;
    }
    this.state.update({ status: 'starting', message: null });
  }

  stop(): void {
    if (this.state.getSnapshot().status === 'off') return;
    this.channel.send({ type: 'follow-stop' });
    this.state.update(OFF);
  }

  /** Sends the display state while sharing (the backend relays at most 10 a second); false when not sent. */
  sendDisplay(display: FollowDisplay): boolean {
    return this.sharing && this.channel.send({ type: 'follow-display', display });
  }

  private receive(message: ServerMessage): void {
    const { status } = this.state.getSnapshot();
    if (message.type === 'follow-started' && status === 'starting') {
      this.state.update({ status: 'sharing', code: message.code, followers: 0, maxFollowers: message.maxFollowers, message: null });
    } else if (message.type === 'follow-count' && status === 'sharing') {
      this.state.update({ followers: message.followers });
    } else if (message.type === 'follow-error' && status === 'starting') {
      this.state.update({ ...OFF, message: message.message });
    }
  }
}
