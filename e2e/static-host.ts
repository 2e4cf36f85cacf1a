// A plain static HTTP server standing in for GitHub Pages in the static site's e2e: it serves one folder
// (dist/static) under one sub-path (/pipescope/) and nothing else — every other path is a 404, as on a
// host where the site is not at the root. GET and HEAD only, a directory serves its index.html, a
// directory without its trailing slash is redirected like GitHub Pages does, and a path that would leave
// the folder is refused. No headers beyond the content type: a static host sets no CSP or cookies.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
  '.gz': 'application/gzip',
};

export interface StaticHost {
  /** The site's URL, ending in the sub-path's slash: http://127.0.0.1:<port>/pipescope/. */
  url: string;
  /** Every path asked for, in order (the test checks what the page requested through the browser too). */
  paths: string[];
  stop(): Promise<void>;
}

/**
 * pages: extra HTML pages outside the sub-path, by exact path (e.g. a docs page at /docs/guide.html that
 * embeds the site); a function is asked at each request, so a test can write the page after start.
 */
export async function startStaticHost(folder: string, subPath = '/pipescope/', pages: Record<string, () => string> = {}): Promise<StaticHost> {
  const paths: string[] = [];
  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://host');
    paths.push(pathname);
    if (request.method !== 'GET' && request.method !== 'HEAD') return end(405);
    const page = pages[pathname];
    if (page) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return response.end(request.method === 'HEAD' ? undefined : page());
    }
    if (pathname === subPath.slice(0, -1)) return redirect(subPath);
    if (!pathname.startsWith(subPath)) return end(404);
    let file = normalize(join(folder, decodeURIComponent(pathname.slice(subPath.length))));
    if (file !== folder && !file.startsWith(folder + sep)) return end(404);
    if (existsSync(file) && statSync(file).isDirectory()) {
      if (!pathname.endsWith('/')) return redirect(`${pathname}/`);
      file = join(file, 'index.html');
    }
    if (!existsSync(file) || !statSync(file).isFile()) return end(404);
    const body = readFileSync(file);
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);

    function end(status: number) {
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(`${status}\n`);
    }
    function redirect(location: string) {
      response.writeHead(301, { location });
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${subPath}`,
    paths,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
