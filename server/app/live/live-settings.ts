// Everything the HTTP gate and the live endpoint need to know about who may use this server and how
// much, built once from the serve options: the origin policy, the headers' options, the client
// limits (defaults where no flag was given), the secret redactor and the refusal log.
import { DEFAULT_CLIENT_LIMITS } from '../access/client-limits.ts';
import type { LiveSettings } from './live-endpoint.ts';
import { OriginPolicy } from '../access/origin-policy.ts';
import { RefusalLog, type LogLine } from '../access/refusal-log.ts';
import { secretRedactor } from '../access/secret-redactor.ts';
import type { ServeOptions } from '../cli/serve-options.ts';

export function liveSettings(options: ServeOptions, log?: LogLine): LiveSettings {
  return {
    policy: new OriginPolicy({ host: options.host, allowOrigins: options.allowOrigins ?? [], allowHosts: options.allowHosts ?? [] }),
    headers: { frameAncestors: options.frameAncestors ?? [] },
    limits: { ...DEFAULT_CLIENT_LIMITS, ...options.limits },
    redact: secretRedactor(options.redisUrl),
    log: new RefusalLog(log),
  };
}
