// Serves the built browser app (dist/web) over HTTP: known content types, no directory escapes,
// index.html for a directory (the root, /embed/; /embed is redirected to /embed/ so that the page's
// relative URLs, its assets and ?trace=run.json, resolve inside the folder as on any static host), ETags (a 304 when unchanged). Nothing else is exposed. The security
// headers (nosniff, CSP, …) are set on every response by http-gate.ts before this runs.
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.gz': 'application/gzip',
};

export function staticFileHandler(root: string) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://localhost');
    const pathname = decodeURIComponentSafe(url.pathname);
    let relative = normalize(pathname);
    const directory = join(root, relative);
    if ((directory === root || directory.startsWith(root + sep)) && existsSync(directory) && statSync(directory).isDirectory()) {
      if (!pathname.endsWith('/')) {
        // A folder named without its slash: to the folder, query kept (a path on this host: never //other.host).
        response.writeHead(301, { location: `${url.pathname.replace(/^\/+/, '/')}/${url.search}`, 'cache-control': 'no-cache' }).end();
        return;
      }
      relative = join(relative, 'index.html');
    }
    const file = join(root, relative);
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    const cache = relative.startsWith(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const stat = statSync(file);
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    // no-cache pages (index.html) are asked for again on every load: unchanged, they cost a 304.
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, { etag, 'cache-control': cache }).end();
      return;
    }
    response.writeHead(200, { 'content-type': type, 'content-length': stat.size, 'cache-control': cache, etag });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '/\0invalid';
  }
}
