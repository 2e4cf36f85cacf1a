// INFO's reply as name → value: "# Section" headers and blank lines dropped, values kept as text.
// Read by the session (version, mode), the server counters (stats, commandstats) and the memory sampler.
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}
