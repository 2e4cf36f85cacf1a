import { expect, it } from 'vitest';
import { explainConnectError } from './connect-failure.ts';
import { targetFromUrl } from './redis-target.ts';

const plain = targetFromUrl('redis://db.example:6380');
const tls = targetFromUrl('rediss://db.example:6380');
const socketError = (code: string, message = `connect ${code} 10.0.0.1:6380`) => Object.assign(new Error(message), { code });

it.each([
  [new Error('WRONGPASS invalid username-password pair or user is disabled.'), plain, 'wrong-password', 'wrong password or user name (Redis answered WRONGPASS invalid username-password pair or user is disabled.)'],
  [new Error('NOAUTH Authentication required.'), plain, 'no-password', 'Redis requires a password and none was given (NOAUTH)'],
  [new Error('DENIED Redis is running in protected mode'), plain, 'redis-refused', 'Redis refused the connection: DENIED Redis is running in protected mode'],
  [socketError('ECONNREFUSED'), plain, 'refused', 'nothing is listening on db.example:6380 (ECONNREFUSED)'],
  [new Error('Unknown RESP type 72 "H". Please report this.'), plain, 'not-redis', 'db.example:6380 is not a Redis server: its answer starts with "H", not a RESP type (an HTTP server answers "HTTP/1.1 …")'],
  [new Error('Protocol error, got "S" as reply type byte'), plain, 'not-redis', 'db.example:6380 is not a Redis server: its answer starts with "S", not a RESP type'],
  [socketError('ECONNRESET', 'read ECONNRESET'), plain, 'reset', 'db.example:6380 closed the connection (ECONNRESET): if it is a TLS port, use rediss://'],
  [socketError('ECONNRESET', 'read ECONNRESET'), tls, 'reset', 'db.example:6380 closed the connection (ECONNRESET)'],
  [socketError('ETIMEDOUT', 'connect ETIMEDOUT'), tls, 'timeout', 'no answer from db.example:6380 in time (ETIMEDOUT): if it is not a TLS port, use redis://'],
  [socketError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.example'), plain, 'host-not-found', 'the host of db.example:6380 was not found (ENOTFOUND)'],
  [socketError('EHOSTUNREACH'), plain, 'unreachable', 'db.example:6380 cannot be reached (EHOSTUNREACH)'],
  [socketError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"), tls, 'tls-certificate',
    "certificate error: the TLS certificate of db.example:6380 is not trusted (Hostname/IP does not match certificate's altnames, ERR_TLS_CERT_ALTNAME_INVALID). If it comes from a private CA, give that CA with --redis-ca FILE (or NODE_EXTRA_CA_CERTS=FILE)."],
  [new Error('Connection is closed.'), plain, 'other', 'Connection is closed.'],
])('%s → %s', (error, target, kind, message) => {
  const explained = explainConnectError(error, target);
  expect(explained.kind).toBe(kind);
  expect(explained.message).toBe(message);
});
