// The page's one live channel and the stores that hear it. Each store starts listening before the channel
// opens, in the order given, so they hear every message in that order (the run store before the sweep
// store: live/live-channel.ts passes each message to its listeners in turn); then the channel starts.
import { useEffect } from 'react';
import type { PageChannel } from '../../live/live-channel.ts';

export interface ChannelListener {
  /** Starts listening; returns the function that stops. */
  attach(): () => void;
}

/** `fourth` is optional: the Observe tab's store exists only with a backend. */
export function usePageChannel(channel: PageChannel, first: ChannelListener, second: ChannelListener, third: ChannelListener, fourth?: ChannelListener): void {
  useEffect(() => {
    const detach = [first.attach(), second.attach(), third.attach(), ...(fourth ? [fourth.attach()] : [])];
    channel.start();
    return () => {
      channel.stop();
      for (const stop of detach.reverse()) stop();
    };
  }, [channel, first, second, third, fourth]);
}
