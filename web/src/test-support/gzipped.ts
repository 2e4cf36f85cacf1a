// For tests of the gzip path (base/gzip-text.ts): text gzipped by the platform's own CompressionStream,
// the counterpart of the DecompressionStream the page uses.
export async function gzipped(text: string): Promise<Uint8Array> {
  const stream = new Response(new TextEncoder().encode(text)).body!.pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
