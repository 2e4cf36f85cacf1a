// Which Redis a Pipescope process runs against: its own private redis-server (the default), or an
// existing one given by URL (redis:// or rediss:// for TLS, with optional user and password).
// Every connection Pipescope opens is made here, with options that suit measurement.
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates } from 'node:tls';
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisTarget {
  /** host:port, for display and traces; never carries the password. */
  address: string;
  /** True when Pipescope started this redis-server itself. */
  embedded: boolean;
  url: string;
  /** The redis-server's process id, when Pipescope started it (strace attaches to it). */
  pid?: number;
  /** For TLS through a local hop: the name the certificate must match (the real host). */
  tlsServername?: string;
  /** For rediss://: CA certificates (PEM) to trust besides Node's own (--redis-ca FILE). */
  tlsCa?: string;
}

export function targetFromUrl(url: string, embedded = false, tlsCa?: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`Invalid Redis URL "${redactUrl(url)}": expected redis://[user:password@]host:port[/db] or rediss://…`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new Error(`Invalid Redis URL: the scheme must be redis:// or rediss://, not ${parsed.protocol}//`);
  }
  return { address: `${parsed.hostname}:${parsed.port || '6379'}`, embedded, url, ...(tlsCa ? { tlsCa } : {}) };
}

/**
 * The URL without its credentials, for messages and logs: scheme, host, port and database rebuilt from
 * the WHATWG parse (which splits user:password from the host at the last "@"), so no part of a password
 * that contains "@", ":" or "/" survives. Unreadable text is not echoed at all.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '<unreadable URL>';
  }
  const credentials = parsed.username || parsed.password ? '***@' : '';
  const port = parsed.port ? `:${parsed.port}` : '';
  const db = /^\/\d*$/.test(parsed.pathname) ? parsed.pathname : parsed.pathname ? '/…' : '';
  return `${parsed.protocol}//${credentials}${parsed.hostname}${port}${db}`;
}

export function targetHostPort(target: RedisTarget): { host: string; port: number } {
  const url = new URL(target.url);
  return { host: url.hostname, port: Number(url.port || 6379) };
}

/** The same Redis reached through a local TCP hop (the delay proxy); TLS still names the real host. */
export function viaProxy(target: RedisTarget, proxy: { host: string; port: number }): RedisTarget {
  const url = new URL(target.url);
  url.hostname = proxy.host;
  url.port = String(proxy.port);
  return { ...target, url: url.toString(), tlsServername: target.tlsServername ?? targetHostPort(target).host };
}

/** TLS options for the target: the name its certificate must match, and any extra CA. */
export function tlsOptions(target: RedisTarget): { servername: string; ca?: string[] } {
  const servername = target.tlsServername ?? targetHostPort(target).host;
  // Node's default CAs plus the given one: `ca` alone would replace them.
  return target.tlsCa ? { servername, ca: [...rootCertificates, target.tlsCa] } : { servername };
}

const errorsSeen = new WeakMap<Redis, Error[]>();

/** The connection's last few errors since it was last ready, oldest first (connect-failure.ts explains them). */
export function recentErrors(client: Redis): Error[] {
  return errorsSeen.get(client) ?? [];
}

/** A connection that never reconnects or queues by itself: a run either measures or fails. */
export function connect(target: RedisTarget, name: string, extra: RedisOptions = {}): Redis {
  const tls = target.url.startsWith('rediss:') ? { tls: tlsOptions(target) } : {};
  const client = new Redis(target.url, {
    ...tls,
    lazyConnect: true,
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableAutoPipelining: false,
    connectTimeout: 5_000,
    ...extra,
  });
  // Surfaced through the failing command instead; kept, because ioredis rejects a failed connect()
  // with "Connection is closed." and the cause is only in these.
  client.on('error', (error: Error) => errorsSeen.set(client, [...recentErrors(client), error].slice(-5)));
  client.on('ready', () => errorsSeen.delete(client));
  return client;
}

/** A plain (or TLS) socket to the target, for the raw engine and MONITOR; resolves once connected. */
export async function openRawSocket(target: RedisTarget): Promise<Socket> {
  const tls = target.url.startsWith('rediss:');
  const { host, port } = targetHostPort(target);
  const socket = tls ? tlsConnect({ host, port, ...tlsOptions(target) }) : tcpConnect({ host, port });
  socket.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    socket.once(tls ? 'secureConnect' : 'connect', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

/** AUTH (when the URL has credentials) and SELECT (when it names a database), as a raw client must send them. */
export function handshakeCommands(target: RedisTarget, { select }: { select: boolean }): string[][] {
  const url = new URL(target.url);
  const commands: string[][] = [];
  if (url.password) commands.push(['AUTH', ...(url.username ? [decodeURIComponent(url.username)] : []), decodeURIComponent(url.password)]);
  const db = url.pathname.slice(1);
  if (select && db) commands.push(['SELECT', db]);
  return commands;
}
