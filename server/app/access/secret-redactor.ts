// Nothing Pipescope sends to a browser or prints may carry a credential. Error texts come from many
// places (ioredis, redis-benchmark, the OS), so every message leaving the app passes through this: the
// Redis URL's password, raw and percent-decoded, and the whole URL become ***, and so does the
// user:password part of anything that looks like a URL.
import { redactUrl } from '../../redis/redis-target.ts';

export type Redactor = (text: string) => string;

export function secretRedactor(redisUrl: string | undefined): Redactor {
  const secrets = new Set<string>();
  if (redisUrl) {
    secrets.add(redisUrl);
    // As typed (between the user's ":" and the last "@"), and as the URL parser re-encodes it.
    const typed = /^[a-z][a-z0-9+.-]*:\/\/[^:@]*:(.*)@/i.exec(redisUrl)?.[1];
    if (typed) secrets.add(typed).add(safeDecode(typed));
    try {
      const { password } = new URL(redisUrl);
      if (password) secrets.add(password).add(safeDecode(password));
    } catch {
      // not a URL: the whole string is the secret, added above
    }
  }
  const ordered = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length); // longest first
  // The checks before each replacement only save time (follow mode passes every reply preview through here).
  return (text) => {
    let out = text;
    for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(secret === redisUrl ? redactUrl(secret) : '***');
    // Userinfo never starts with "[" (an IPv6 host does, after it): so a usage hint such as
    // redis://[user:password@]host:port stays readable instead of becoming redis://***@]host:port.
    return out.includes('://') ? out.replace(/\b([a-z][a-z0-9+.-]*:\/\/)(?!\[)[^\s/]*@/gi, '$1***@') : out;
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A JSON value with every string in it (object values and array items, at any depth) passed through the
 * redactor; what no secret touched is returned as it is (the same object), so the long number arrays of
 * a run's events are never copied.
 */
export function redactStrings<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || (typeof item !== 'string' && typeof item !== 'object')) continue;
      const redacted = redactStrings(item, redact);
      if (redacted !== item) (copy ??= value.slice())[i] = redacted;
    }
    return (copy ?? value) as T;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const redacted = redactStrings(item, redact);
    if (redacted !== item) (copy ??= { ...(value as Record<string, unknown>) })[key] = redacted;
  }
  return (copy ?? value) as T;
}
