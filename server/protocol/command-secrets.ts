// Which arguments of a Redis command carry a secret, and which replies may: the observing proxy's
// parsers (resp-request-parser.ts, resp-reply-parser.ts) replace them before anything is stored, so a
// password typed into AUTH, HELLO … AUTH, MIGRATE … AUTH, CONFIG SET requirepass or ACL SETUSER >pass
// is never recorded, shown or logged. Erring on the side of hiding: a name not yet complete hides all.

export const REDACTED = '(redacted)';

/** Commands that may carry a secret somewhere in their arguments. */
const SENSITIVE = new Set(['AUTH', 'HELLO', 'MIGRATE', 'CONFIG', 'ACL']);
/** CONFIG SET parameters whose value is a secret. */
const SECRET_PARAMETERS = new Set(['requirepass', 'masterauth', 'masteruser', 'tls-key-file-pass', 'tls-client-key-file-pass']);

function upper(arg: Buffer | undefined): string {
  return arg ? arg.toString('latin1').toUpperCase() : '';
}

/**
 * The indices of `args` that are secrets. With `partial` (the command is still being read), -1 among
 * them means "and every argument still to come".
 */
export function secretArguments(args: readonly Buffer[], partial = false): number[] {
  const name = upper(args[0]);
  if (!SENSITIVE.has(name)) return [];
  const found: number[] = [];
  if (partial) found.push(-1);
  switch (name) {
    case 'AUTH':
      for (let i = 1; i < args.length; i++) found.push(i);
      break;
    case 'HELLO':
      for (let i = 1; i < args.length; i++) if (upper(args[i]) === 'AUTH') found.push(i + 2);
      break;
    case 'MIGRATE':
      for (let i = 1; i < args.length; i++) {
        if (upper(args[i]) === 'AUTH') found.push(i + 1);
        if (upper(args[i]) === 'AUTH2') found.push(i + 2);
      }
      break;
    case 'CONFIG':
      if (upper(args[1]) === 'SET') {
        for (let i = 2; i + 1 < args.length; i += 2) if (SECRET_PARAMETERS.has(args[i]!.toString('latin1').toLowerCase())) found.push(i + 1);
      }
      break;
    case 'ACL':
      if (upper(args[1]) === 'SETUSER') {
        for (let i = 3; i < args.length; i++) if (/^[<>#!]/.test(args[i]!.toString('latin1'))) found.push(i);
      }
      break;
  }
  return found;
}

/** Whether a command's reply may hold a secret (CONFIG GET requirepass, ACL's password hashes): its preview is hidden. */
export function replyMayHoldSecret(args: readonly Buffer[]): boolean {
  const name = upper(args[0]);
  const sub = upper(args[1]);
  return (name === 'CONFIG' && sub === 'GET') || (name === 'ACL' && (sub === 'GETUSER' || sub === 'LIST' || sub === 'GENPASS'));
}
