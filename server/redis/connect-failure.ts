// Why a connection to Redis failed, in words a user can act on. ioredis rejects a failed connect()
// with "Connection is closed." whatever happened; the real cause arrives earlier as an 'error' event
// (redis-target.ts keeps the recent ones): a WRONGPASS or NOAUTH reply to the handshake, a socket
// error code (ECONNREFUSED, ETIMEDOUT, ENOTFOUND), a reply that is not RESP (an HTTP server), or a TLS
// certificate the default CAs do not trust. The raw engine's socket and AUTH errors go through the
// same words.
import type { Redis } from 'ioredis';
import { recentErrors, type RedisTarget } from './redis-target.ts';

export type ConnectFailureKind =
  | 'wrong-password'
  | 'no-password'
  | 'refused'
  | 'not-redis'
  | 'tls-certificate'
  | 'reset'
  | 'timeout'
  | 'host-not-found'
  | 'unreachable'
  | 'redis-refused'
  | 'other';

export class RedisConnectError extends Error {
  override name = 'RedisConnectError';

  constructor(
    message: string,
    readonly kind: ConnectFailureKind,
  ) {
    super(message);
  }
}

/** Connects `client` (made by redis-target's connect); on failure, closes it and throws the cause in words. */
export async function openConnection(client: Redis, target: RedisTarget): Promise<void> {
  try {
    await client.connect();
  } catch (error) {
    client.disconnect(); // a client with a retry strategy would otherwise keep trying in the background
    throw describeConnectFailure(client, error, target);
  }
}

/**
 * Most telling first: what Redis or TLS said beats what the socket did after it (a server that
 * answered HTTP then closed gives both "not RESP" and EPIPE).
 */
const TELLING: ConnectFailureKind[] = [
  'wrong-password', 'no-password', 'redis-refused', 'tls-certificate', 'not-redis', 'refused', 'host-not-found', 'unreachable', 'timeout', 'reset', 'other',
];

/** The most telling of the client's recent errors and `error` itself (the latest, among equals), explained. */
export function describeConnectFailure(client: Redis | undefined, error: unknown, target: RedisTarget): RedisConnectError {
  return mostTelling([error, ...(client ? recentErrors(client) : []).reverse()], target);
}

/**
 * The most telling of a failed connection's errors, latest first (the first among equals wins),
 * explained: for clients other than ioredis (node-redis), which keep their own recent errors.
 */
export function mostTelling(errors: readonly unknown[], target: RedisTarget): RedisConnectError {
  const explained = errors.map((candidate) => explainConnectError(candidate, target));
  return explained.reduce((best, next) => (TELLING.indexOf(next.kind) < TELLING.indexOf(best.kind) ? next : best));
}

const TLS_CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_UNTRUSTED', 'CERT_SIGNATURE_FAILURE',
  'CERT_REVOKED', 'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** One error, explained; kind 'other' when it says nothing more than its own message. */
export function explainConnectError(error: unknown, target: RedisTarget): RedisConnectError {
  if (error instanceof RedisConnectError) return error;
  const { address } = target;
  const tls = target.url.startsWith('rediss:');
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const fail = (kind: ConnectFailureKind, text: string) => new RedisConnectError(text, kind);
  if (/^WRONGPASS\b/.test(message)) return fail('wrong-password', `wrong password or user name (Redis answered ${message.trim()})`);
  if (/^NOAUTH\b/.test(message)) return fail('no-password', `Redis requires a password and none was given (NOAUTH)`);
  if (/^(ERR|DENIED|NOPERM|LOADING|MASTERDOWN)\b/.test(message)) return fail('redis-refused', `Redis refused the connection: ${message.trim()}`);
  if (code === 'ECONNREFUSED') return fail('refused', `nothing is listening on ${address} (ECONNREFUSED)`);
  if (TLS_CERTIFICATE_CODES.has(code) || /certificate/i.test(message)) {
    return fail('tls-certificate',
      `certificate error: the TLS certificate of ${address} is not trusted (${message}${code ? `, ${code}` : ''}). ` +
        'If it comes from a private CA, give that CA with --redis-ca FILE (or NODE_EXTRA_CA_CERTS=FILE).');
  }
  const notResp = /Unknown RESP type \d+ "(.)"|Protocol error, got "(.)"/.exec(message);
  if (notResp) {
    const first = notResp[1] ?? notResp[2] ?? '?';
    return fail('not-redis',
      `${address} is not a Redis server: its answer starts with "${first}", not a RESP type` +
        `${first === 'H' ? ' (an HTTP server answers "HTTP/1.1 …")' : ''}`);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return fail('reset', `${address} closed the connection (${code})${tls ? '' : ': if it is a TLS port, use rediss://'}`);
  }
  if (code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) {
    return fail('timeout', `no answer from ${address} in time (ETIMEDOUT)${tls ? ': if it is not a TLS port, use redis://' : ''}`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return fail('host-not-found', `the host of ${address} was not found (${code})`);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return fail('unreachable', `${address} cannot be reached (${code})`);
  return fail('other', message);
}
