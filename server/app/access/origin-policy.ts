// Who may talk to this Pipescope. Browsers let any page open a WebSocket to 127.0.0.1 and read it
// (cross-site WebSocket hijacking), and a page whose DNS name is re-pointed at 127.0.0.1 becomes
// "same-origin" with us (DNS rebinding). So every request must name us in its Host header — a name
// this server is bound to — and a WebSocket from a browser must come from our own origin, or from one
// the user allowed with --allow-origin. Requests without Origin are not from a browser page and pass.
import { hostname, networkInterfaces } from 'node:os';

export interface OriginPolicyOptions {
  /** The address the server listens on (--host). */
  host: string;
  /** Extra origins whose pages may open /live (scheme://host[:port]), e.g. a docs site that embeds the app. */
  allowOrigins: readonly string[];
  /** Extra names the Host header may carry (no port), e.g. a DNS name or tunnel in front of the machine. */
  allowHosts: readonly string[];
}

export interface MachineNames {
  addresses(): string[];
  hostname(): string;
}

const THIS_MACHINE: MachineNames = {
  addresses: () => Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address)),
  hostname,
};

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** An address or name as it appears in a Host header: lower case, IPv6 in brackets without a zone. */
export function hostForm(name: string): string {
  const bare = name.trim().toLowerCase().replace(/^\[|\]$/g, '');
  return bare.includes(':') ? `[${bare.replace(/%.*$/, '')}]` : bare;
}

function isLoopback(host: string): boolean {
  const form = hostForm(host);
  return form === 'localhost' || form === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(form);
}

function isAnyAddress(host: string): boolean {
  const form = hostForm(host);
  return form === '0.0.0.0' || form === '[::]' || form === '';
}

export class OriginPolicy {
  private readonly allowOrigins: Set<string>;

  constructor(
    private readonly options: OriginPolicyOptions,
    private readonly machine: MachineNames = THIS_MACHINE,
  ) {
    this.allowOrigins = new Set(options.allowOrigins.map((origin) => origin.toLowerCase()));
  }

  /**
   * The names the Host header may carry. Loopback binds: localhost, 127.0.0.1, [::1]. Any-address binds
   * (0.0.0.0, ::): those, and this machine's addresses and names, asked anew each time (a laptop changes
   * networks). A specific address: itself and the machine's names. Always the bind address and --allow-host.
   */
  hostNames(): Set<string> {
    const { host } = this.options;
    const names = new Set([hostForm(host), ...this.options.allowHosts.map(hostForm)]);
    if (isLoopback(host) || isAnyAddress(host)) LOOPBACK_NAMES.forEach((name) => names.add(name));
    if (!isLoopback(host)) {
      const machineName = hostForm(this.machine.hostname());
      names.add(machineName);
      names.add(`${machineName}.local`);
    }
    if (isAnyAddress(host)) this.machine.addresses().forEach((address) => names.add(hostForm(address)));
    names.delete('');
    return names;
  }

  /** Why this Host header is refused, or null. */
  checkHost(hostHeader: string | undefined): string | null {
    const name = hostOf(hostHeader);
    if (name === null) return 'The request has no readable Host header.';
    if (this.hostNames().has(name)) return null;
    return `Host "${shown(name)}" is not a name this Pipescope serves (it answers to ${[...this.hostNames()].slice(0, 6).join(', ')}). ` +
      'If you reach it by another name, start it with --allow-host NAME.';
  }

  /**
   * Why a request with this Origin is refused, or null: a WebSocket on /live, or (`what`) another request
   * only Pipescope's own pages may make. Call after checkHost passed.
   */
  checkOrigin(originHeader: string | undefined, hostHeader: string | undefined, what = 'open Pipescope\'s live connection'): string | null {
    if (originHeader === undefined) return null; // not a browser page: nothing to hijack
    const origin = originHeader.trim().toLowerCase();
    if (this.allowOrigins.has(origin)) return null;
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {
      // "null" (a sandboxed frame, a file:// page) and anything unreadable
    }
    const ownHost = (hostHeader ?? '').trim().toLowerCase();
    if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.host === ownHost && ownHost !== '') return null;
    return `A page from ${shown(origin)} may not ${what}: only pages Pipescope serves itself ` +
      '(or origins allowed with --allow-origin ORIGIN) may.';
  }
}

/** The host name in a Host header ("name:port", "[v6]:port"), normalised; null when unreadable. */
export function hostOf(hostHeader: string | undefined): string | null {
  if (!hostHeader || /[\s/\\?#@]/.test(hostHeader)) return null;
  try {
    const url = new URL(`http://${hostHeader}`);
    return url.hostname ? hostForm(url.hostname) : null;
  } catch {
    return null;
  }
}

/** An attacker-chosen header, safe to print: printable ASCII, at most 80 characters. */
export function shown(text: string): string {
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}
