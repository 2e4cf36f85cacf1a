// The door every HTTP request and WebSocket upgrade passes: the security headers go on every response,
// and a request whose Host header does not name this server is refused with 403 and the reason (DNS
// rebinding protection; see origin-policy.ts). Upgrades are refused on the raw socket, in plain HTTP,
// and so are requests Node cannot parse (400, 431 for headers too large, 408), which Node would
// otherwise answer by itself without the security headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { OriginPolicy } from './origin-policy.ts';
import type { RefusalLog } from './refusal-log.ts';
import { isEmbedPath, securityHeaders, type HeaderOptions } from './security-headers.ts';

export type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export function gatedHandler(policy: OriginPolicy, headers: HeaderOptions, log: RefusalLog, handler: Handler): Handler {
  return (request, response) => {
    const refusal = policy.checkHost(request.headers.host);
    for (const [name, value] of Object.entries(securityHeaders(headers, refusal ? undefined : request.headers.host, !refusal && isEmbedPath(request.url)))) {
      response.setHeader(name, value);
    }
    if (refusal) {
      log.note('http-host', `refused an HTTP request: ${refusal}`);
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end(`Forbidden: ${refusal}\n`);
      return;
    }
    handler(request, response);
  };
}

const STATUS_TEXT = { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' } as const;

/** Answers an upgrade request with a plain HTTP error and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: 400 | 403 | 404, reason: string, headers: HeaderOptions): void {
  writeRawError(socket, status, reason, headers);
}

/**
 * The HTTP server's 'clientError': a request Node could not parse. Answered as Node would (400; 431 when
 * its headers are too large; 408 when they came too slowly), with the security headers and the reason.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, headers: HeaderOptions): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') return writeRawError(socket, 431, 'the request\'s headers are too large', headers);
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return writeRawError(socket, 408, 'the request did not arrive in time', headers);
  writeRawError(socket, 400, 'the request could not be parsed as HTTP/1.1', headers);
}

function writeRawError(socket: Duplex, status: keyof typeof STATUS_TEXT, reason: string, headers: HeaderOptions): void {
  const body = `${STATUS_TEXT[status]}: ${reason}\n`;
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}`,
    'content-type: text/plain; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(securityHeaders(headers, undefined)).map(([name, value]) => `${name}: ${value}`),
  ];
  if (!socket.writable) socket.destroy();
  else socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
