// The flags of `npm start`: where to listen, which Redis, who may use this server (Host names, page
// origins, framing sites) and how much each client may ask. Parsed strictly like the recorder's
// (cli-options.ts): a bad flag gets one clear message and exit code 2.
import { z } from 'zod';
import { DEFAULT_CLIENT_LIMITS, LIMIT_FLAGS, type ClientLimits } from '../access/client-limits.ts';
import { CLUSTER_FLAGS, CliError, MAX_CLUSTER_REPLICAS, REDIS_URL_FLAGS, clusterFrom, redisUrlFrom, strictParse } from './cli-options.ts';
import { hostForm } from '../access/origin-policy.ts';
import { isFrameAncestorSource } from '../access/security-headers.ts';

export const DEFAULT_PORT = 7380;

export interface ServeOptions {
  port: number;
  host: string;
  redisUrl: string | undefined;
  /** --cluster: a private Redis Cluster (this many replicas per master) instead of the private redis-server. */
  cluster?: { replicas: number } | undefined;
  /** --redis-ca: a PEM file of CA certificates to trust for rediss:// besides Node's own. */
  redisCa?: string;
  /** Origins (scheme://host[:port]) whose pages may open /live besides the app's own. */
  allowOrigins?: string[];
  /** Host names the server answers to besides the ones it is bound to. */
  allowHosts?: string[];
  /** CSP frame-ancestors sources besides 'self'. */
  frameAncestors?: string[];
  limits?: Partial<ClientLimits>;
  /** --observe [PORT]: open the observing port at start (the page's switch opens it too, on this port). */
  observe?: { port: number | null; openAtStart: boolean; host?: string; allowRemote?: boolean };
}

/** The observing port `--observe` opens when no port follows it. */
export const DEFAULT_OBSERVE_PORT = 6390;

const D = DEFAULT_CLIENT_LIMITS;
export const SERVE_USAGE = `Usage: npm start -- [--port N] [--host ADDRESS] [--redis-url URL | --redis-url-file FILE] [more flags below]
  --port N                   HTTP port (default: $PORT or ${DEFAULT_PORT}; 0 picks a free one)
  --host ADDRESS             address to listen on (default: $HOST or 127.0.0.1; 0.0.0.0 opens it to the network)
  --redis-url URL            use this Redis instead of a private redis-server: redis://[user:pass@]host:port[/db],
                             rediss:// for TLS (default: $REDIS_URL). A password here shows in \`ps\`: prefer
  --redis-url-file FILE      the URL read from FILE (first line), or $REDIS_URL
  --redis-ca FILE            for rediss://: also trust the CA certificates (PEM) in FILE, e.g. a private CA
                             (or set NODE_EXTRA_CA_CERTS=FILE for the whole process)
  --cluster                  start a private Redis Cluster (3 masters on free loopback ports) instead of the
                             private redis-server (a --redis-url naming any node of a cluster is recognised as one)
  --cluster-replicas N       with --cluster: N replicas per master (0..${MAX_CLUSTER_REPLICAS}, default 0)
Who may use it:
  --allow-host NAME          also answer to this Host name (repeatable). By default only the names the server is
                             bound to: localhost, 127.0.0.1, [::1]; with --host 0.0.0.0 also this machine's
                             addresses and host name. Other names get 403 (DNS rebinding protection)
  --allow-origin ORIGIN      let pages from ORIGIN (e.g. https://docs.example.com) open the live connection
                             (repeatable). By default only the app's own pages may
  --frame-ancestors SOURCE   let SOURCE (e.g. https://docs.example.com) frame the app (repeatable; * for anyone).
                             By default only the app itself may (Content-Security-Policy frame-ancestors 'self')
Observe your own client (docs/observe.md):
  --observe [PORT]           open an observing port (default ${DEFAULT_OBSERVE_PORT}) that forwards every connection to the Redis
                             measured and records it; point any client or app at redis://127.0.0.1:PORT and watch it in
                             the page's Observe tab (which can also open the port, on a free one without this flag)
  --observe-host ADDRESS     listen address of the observing port (default 127.0.0.1)
  --observe-allow-remote     relay clients from other machines too (with --observe-host 0.0.0.0); never by default
How much each client may ask (one connection = one browser tab; one address = one machine):
  ${LIMIT_FLAGS.maxConnections} N        connections open at once, all clients, followers not counted (default ${D.maxConnections})
  ${LIMIT_FLAGS.maxConnectionsPerAddress} N  of them from one address (default ${D.maxConnectionsPerAddress})
  ${LIMIT_FLAGS.maxQueuedPerConnection} N  requests one connection may have waiting or running (default ${D.maxQueuedPerConnection})
  ${LIMIT_FLAGS.maxQueuedPerAddress} N  requests one address may have waiting or running (default ${D.maxQueuedPerAddress})
  ${LIMIT_FLAGS.maxRunsPerMinute} N    requests one connection may start per minute (default ${D.maxRunsPerMinute})
  ${LIMIT_FLAGS.maxQueuedCommands} N    commands all waiting and running requests may add up to
                             (default ${D.maxQueuedCommands.toLocaleString('en-US')}; a request is always taken when the queue is empty)
  ${LIMIT_FLAGS.maxRunSeconds} S        the longest a request may run (default ${D.maxRunSeconds}): one expected to take longer is
                             refused, one running longer is stopped; past two minutes a run needs the user's yes
  Requests run one at a time, addresses served in turn; each is told its place in the queue.
Follow mode (attendees watch a presenter's runs instead of sending their own):
  ${LIMIT_FLAGS.maxFollowSessions} N        presenters sharing at once (default ${D.maxFollowSessions})
  ${LIMIT_FLAGS.maxFollowSessionsPerAddress} N  of them from one address (default ${D.maxFollowSessionsPerAddress})
  ${LIMIT_FLAGS.maxFollowersPerSession} N              followers per presenter (default ${D.maxFollowersPerSession}); followers have their own
                             connection budget (every session full; one session's worth per address)
  ${LIMIT_FLAGS.maxFollowerUnreadBytes} N  a follower that leaves more unread is dropped (default ${D.maxFollowerUnreadBytes.toLocaleString('en-US')})
  ${LIMIT_FLAGS.maxFollowReplayBytes} N    kept of the presenter's latest request for late joiners (default ${D.maxFollowReplayBytes.toLocaleString('en-US')})`;

const PortSchema = z.coerce.number({ error: '--port must be a number' }).int('--port must be a whole number').min(0, '--port must be 0..65535').max(65535, '--port must be 0..65535');

export function parseServeOptions(givenArgv: string[], env: NodeJS.ProcessEnv): ServeOptions | 'help' {
  // --observe takes an optional PORT: a bare --observe means the default one.
  const argv = givenArgv.map((arg, i) => (arg === '--observe' && !/^\d+$/.test(givenArgv[i + 1] ?? '') ? `--observe=${DEFAULT_OBSERVE_PORT}` : arg));
  const { values } = strictParse(argv, {
    observe: { type: 'string' },
    'observe-host': { type: 'string' },
    'observe-allow-remote': { type: 'boolean' },
    port: { type: 'string' },
    host: { type: 'string' },
    ...REDIS_URL_FLAGS,
    ...CLUSTER_FLAGS,
    'redis-ca': { type: 'string' },
    'allow-host': { type: 'string', multiple: true },
    'allow-origin': { type: 'string', multiple: true },
    'frame-ancestors': { type: 'string', multiple: true },
    [LIMIT_FLAGS.maxConnections.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxQueuedPerConnection.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxRunsPerMinute.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxQueuedCommands.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxFollowSessions.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxFollowersPerSession.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxFollowerUnreadBytes.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxFollowReplayBytes.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxConnectionsPerAddress.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxQueuedPerAddress.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxFollowSessionsPerAddress.slice(2)]: { type: 'string' },
    [LIMIT_FLAGS.maxRunSeconds.slice(2)]: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const given: Record<string, unknown> = values;
  const text = (name: string) => given[name] as string | undefined;
  const list = (name: string) => (given[name] as string[] | undefined) ?? [];
  // An empty environment variable counts as unset; an empty flag is a mistake worth naming.
  if (text('port') !== undefined && text('port')!.trim() === '') throw new CliError('--port must be a number');
  const port = PortSchema.safeParse(text('port') ?? (env['PORT'] || undefined) ?? DEFAULT_PORT);
  if (!port.success) throw new CliError(port.error.issues[0]!.message);
  if (text('host') !== undefined && text('host')!.trim() === '') throw new CliError('--host must not be empty');
  const host = text('host') ?? (env['HOST'] || undefined) ?? '127.0.0.1';
  const limits: Partial<ClientLimits> = {};
  for (const [key, flag] of Object.entries(LIMIT_FLAGS) as [keyof ClientLimits, string][]) {
    const value = text(flag.slice(2));
    if (value !== undefined) limits[key] = positiveWholeNumber(flag, value);
  }
  const observePort = text('observe');
  if (observePort !== undefined && !(/^\d+$/.test(observePort) && Number(observePort) <= 65535)) throw new CliError(`--observe takes a port (0..65535), not "${observePort}"`);
  if (values['observe-allow-remote'] && !text('observe-host')) throw new CliError('--observe-allow-remote relays clients from other machines: give --observe-host too (e.g. 0.0.0.0)');
  return {
    port: port.data,
    host,
    ...(observePort !== undefined || text('observe-host')
      ? { observe: {
        port: observePort === undefined ? null : Number(observePort),
        openAtStart: observePort !== undefined,
        ...(text('observe-host') ? { host: text('observe-host') } : {}),
        ...(values['observe-allow-remote'] ? { allowRemote: true } : {}),
      } }
      : {}),
    redisUrl: redisUrlFrom(values, env),
    cluster: clusterFrom(values, redisUrlFrom(values, env)),
    ...(text('redis-ca') ? { redisCa: text('redis-ca') } : {}),
    allowOrigins: list('allow-origin').map(originFlag),
    allowHosts: list('allow-host').map(hostFlag),
    frameAncestors: list('frame-ancestors').map(frameAncestorFlag),
    limits,
  };
}

function positiveWholeNumber(flag: string, text: string): number {
  const value = Number(text.replace(/_/g, ''));
  if (!/^\d[\d_]*$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) throw new CliError(`${flag} must be a whole number of at least 1, not "${text}"`);
  return value;
}

/** scheme://host[:port], as browsers send it in Origin (no path, no trailing slash). */
function originFlag(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {
    // refused below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.origin === 'null' || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new CliError(`--allow-origin must be an origin like https://docs.example.com or http://localhost:5173, not "${text}"`);
  }
  return url.origin;
}

function hostFlag(text: string): string {
  const form = hostForm(text);
  if (!/^([a-z0-9-]+(\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])$/.test(form)) throw new CliError(`--allow-host must be a host name or address without a port, not "${text}"`);
  return form;
}

function frameAncestorFlag(text: string): string {
  const source = text.trim();
  if (!isFrameAncestorSource(source)) throw new CliError(`--frame-ancestors must be an origin like https://docs.example.com, a scheme like https:, or *, not "${text}"`);
  return source;
}
