// How an observed command is written in its trace: the name and its arguments as sent, each printable
// argument as it is up to ARG_SHOWN characters, a binary one escaped, a long one cut with its size, and
// at most ARGS_SHOWN of them ("SET user:1 hello", "HSET h f1 v1 … (+40 args)"). Secrets were replaced
// by "(redacted)" in the parser, before this ever sees them.
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import type { ParsedCommand } from '../protocol/resp-request-parser.ts';

const ARG_SHOWN = 40;
const ARGS_SHOWN = 8;

export function commandText(command: ParsedCommand): string {
  const shown = command.args.slice(0, ARGS_SHOWN).map((arg, i) => argumentText(arg, command.argBytes[i] ?? arg.length, i === 0));
  const more = command.args.length - shown.length;
  return `${shown.join(' ')}${more > 0 ? ` … (+${more.toLocaleString('en-US')} args)` : ''}`;
}

function argumentText(arg: Buffer, bytes: number, isName: boolean): string {
  const plain = /^[\x21-\x7e]*$/.test(arg.toString('latin1')) && arg.length > 0;
  const body = plain ? arg.toString('latin1').slice(0, ARG_SHOWN) : `"${escapeBytes(arg, ARG_SHOWN)}"`;
  const cut = bytes > ARG_SHOWN ? `${plain ? '' : ''}… (${bytes.toLocaleString('en-US')} B)` : '';
  const text = `${plain ? body : body.replace(/…"$/, '"')}${cut}`;
  return isName ? text.toUpperCase() : text;
}
