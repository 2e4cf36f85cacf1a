// Who may hold a live connection: runners (every tab that may send runs) within --max-connections in
// all and --max-connections-per-address from one address; followers (a tab opened with a live follow
// session's code, which only watches) within a budget of their own (client-limits.ts followerBudget),
// so a presenter's 200 followers never compete with the presenter or anyone else for a runner's place,
// and a script cannot take every place by opening sockets. The address is the peer's IP address as the
// socket sees it (IPv4-mapped IPv6 written as IPv4).
import {
  addressConnectionRefusal, connectionRefusal, followerBudget, followerRefusal, type ClientLimits,
} from './client-limits.ts';

export type Pool = 'runner' | 'follower';

/** A place held: give it back when the connection closes (once, however often called). */
export type Release = () => void;

export class ConnectionBudget {
  private readonly counts: Record<Pool, { total: number; byAddress: Map<string, number> }> = {
    runner: { total: 0, byAddress: new Map() },
    follower: { total: 0, byAddress: new Map() },
  };

  constructor(private readonly limits: ClientLimits) {}

  /** A place in `pool` for a connection from `address`, or the close reason saying why not. */
  admit(address: string, pool: Pool): Release | string {
    const count = this.counts[pool];
    const fromAddress = count.byAddress.get(address) ?? 0;
    if (pool === 'runner') {
      if (count.total >= this.limits.maxConnections) return connectionRefusal(this.limits);
      if (fromAddress >= this.limits.maxConnectionsPerAddress) return addressConnectionRefusal(this.limits);
    } else {
      const budget = followerBudget(this.limits);
      if (count.total >= budget.total || fromAddress >= budget.perAddress) return followerRefusal(budget);
    }
    count.total++;
    count.byAddress.set(address, fromAddress + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      count.total--;
      const left = (count.byAddress.get(address) ?? 1) - 1;
      if (left > 0) count.byAddress.set(address, left);
      else count.byAddress.delete(address);
    };
  }

  /** Connections held in `pool` (from `address`, when given). */
  held(pool: Pool, address?: string): number {
    const count = this.counts[pool];
    return address === undefined ? count.total : (count.byAddress.get(address) ?? 0);
  }
}

/** The peer's address as the budget counts it: "::ffff:10.0.0.5" is 10.0.0.5. */
export function clientAddress(remoteAddress: string | undefined): string {
  if (!remoteAddress) return 'unknown';
  return remoteAddress.startsWith('::ffff:') ? remoteAddress.slice(7) : remoteAddress;
}
