// The follow link: the page's own origin with ?follow=<code> (so attendees reach the backend the presenter's
// page came from), and reading it back. A page opened by localhost or 127.0.0.1 makes a link only that
// machine can open: the presenter is told to open Pipescope by the machine's network address instead.
import { FOLLOW_CODE_PATTERN } from '../../../trace/protocol/follow-protocol.ts';

export const FOLLOW_PARAM = 'follow';

export type FollowParam = { code: string } | { problem: string };

/** The ?follow= of a page's search: null when absent; a problem when it cannot be a code. */
export function followParam(search: string): FollowParam | null {
  let value: string | null;
  try {
    value = new URLSearchParams(search).get(FOLLOW_PARAM);
  } catch {
    return null;
  }
  if (value === null) return null;
  const code = value.trim();
  return FOLLOW_CODE_PATTERN.test(code) ? { code } : { problem: 'This follow link is incomplete or mistyped (its code should be 22 letters, digits, - or _). Ask the presenter for the link again.' };
}

export function followLink(location: Pick<Location, 'origin'>, code: string): string {
  return `${location.origin}/?${FOLLOW_PARAM}=${encodeURIComponent(code)}`;
}

/** True when the page was opened by a name only this machine resolves to itself. */
export function isLoopbackPage(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
