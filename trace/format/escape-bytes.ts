// Bytes as a person can read them on one line, the way strace and redis-cli print them:
// printable ASCII as is, \r \n \t \" \\ by name, anything else as \xHH; cut after `limit` bytes with "…".
export function escapeBytes(bytes: Uint8Array, limit: number): string {
  let text = '';
  const end = Math.min(bytes.length, limit);
  for (let i = 0; i < end; i++) {
    const b = bytes[i]!;
    if (b === 13) text += '\\r';
    else if (b === 10) text += '\\n';
    else if (b === 9) text += '\\t';
    else if (b === 34) text += '\\"';
    else if (b === 92) text += '\\\\';
    else if (b >= 32 && b < 127) text += String.fromCharCode(b);
    else text += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > limit ? `${text}…` : text;
}
