import { describe, expect, it } from 'vitest';
import { gzipped } from '../test-support/gzipped.ts';
import { isGzip, textOfBody } from './gzip-text.ts';

describe('textOfBody', () => {
  const text = '{"format":"pipescope-trace","note":"µs — ✓"}';

  it('reads plain UTF-8 bytes, an ArrayBuffer, or text as it is', async () => {
    const bytes = new TextEncoder().encode(text);
    expect(await textOfBody(bytes)).toBe(text);
    expect(await textOfBody(bytes.buffer)).toBe(text);
    expect(await textOfBody(text)).toBe(text);
  });

  it('gunzips bytes that start with 1f 8b, whatever the file is called', async () => {
    const gz = await gzipped(text);
    expect(isGzip(gz)).toBe(true);
    expect(await textOfBody(gz)).toBe(text);
    expect(await textOfBody(gz.buffer as ArrayBuffer)).toBe(text);
  });

  it('says clearly when a .gz is damaged or cut short', async () => {
    const gz = await gzipped(text.repeat(50));
    await expect(textOfBody(gz.slice(0, gz.length / 2))).rejects.toThrow(/^the file starts like gzip but does not decompress: it is damaged or cut short/);
    const garbled = gz.slice();
    garbled.fill(0x55, 10, 30);
    await expect(textOfBody(garbled)).rejects.toThrow(/^the file starts like gzip but does not decompress/);
  });

  it('refuses a file that inflates beyond the limit', async () => {
    const gz = await gzipped('0'.repeat(100_000));
    await expect(textOfBody(gz, 10_000)).rejects.toThrow(/^the file inflates to more than 9\.8 KiB \(the limit for \d+ B of gzip: 16 MiB \+ 32 × its size, at most 384 MiB\); that is not a trace Pipescope can show\.$/);
  });
});
