// One tab's part in observing: it hears the observing port's status and the traces of the connections
// it draws (observe-hub.ts), and may open or close the port, set its added delay, stop the session, and
// run a bundled client through it. Every message from the tab was validated before it gets here.
import type { ClientMessage, ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { ObserveHub, ObserveListener } from '../../observe/observe-hub.ts';

export type ObserveMessage = Extract<ClientMessage, { type: `observe-${string}` }>;

export function isObserveMessage(message: ClientMessage): message is ObserveMessage {
  return message.type.startsWith('observe-');
}

export class ObserveRole {
  private readonly listener: ObserveListener;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly hub: ObserveHub,
    private readonly send: (message: ServerMessage) => void,
  ) {
    this.listener = {
      status: (status) => send({ type: 'observe-status', status }),
      trace: (session, connection, trace) => send({ type: 'observe-trace', session, connection, trace }),
    };
    this.unsubscribe = hub.subscribe(this.listener);
  }

  handle(message: ObserveMessage): void {
    const failed = (error: Error) => this.send({ type: 'error', message: `Observing: ${error.message}` });
    switch (message.type) {
      case 'observe-open':
        return void this.hub.open(message.rttMs, message.jitterMs).catch(failed);
      case 'observe-close':
        return void this.hub.close().catch(failed);
      case 'observe-delay':
        return this.hub.setDelay(message.rttMs, message.jitterMs);
      case 'observe-monitor':
        return void this.hub.setMonitor(message.on);
      case 'observe-stop':
        return void this.hub.stop().then((stopped) => stopped && this.send({ type: 'observe-stopped', ...stopped }), failed);
      case 'observe-watch':
        return this.hub.watch(this.listener, message.session, message.connections);
      case 'observe-run-client':
        return void this.hub.runClients(message.clients, message.n).catch(failed);
    }
  }

  close(): void {
    this.unsubscribe();
  }
}
