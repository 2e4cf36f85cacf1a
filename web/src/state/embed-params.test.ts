import { describe, expect, it } from 'vitest';
import { MAX_TRACE_FILES } from '../../../trace/protocol/page-limits.ts';
import { DEFAULT_EMBED_PARAMS, attributeSource, embedParamsFromSearch, parseEmbedParams, readFlag, readOrigin, readPanels, readStartUs } from './embed-params.ts';

describe('embed params from the URL', () => {
  it('defaults: no traces, auto theme, diagram and summary, controls on, the rest off', () => {
    expect(embedParamsFromSearch('')).toEqual(DEFAULT_EMBED_PARAMS);
  });

  it('reads every parameter', () => {
    const p = embedParamsFromSearch('?trace=a.json&trace=%20/b.json&theme=dark&panels=summary&autoplay&loop=1&controls=0&lazy=yes&speed=1/100&t=1.5ms&origin=https://docs.example.com/page');
    expect(p).toEqual({
      traceUrls: ['a.json', '/b.json'], theme: 'dark', panels: ['summary'], autoplay: true, loop: true, lazy: true, controls: false, speed: 0.01, t: 1500,
      origin: 'https://docs.example.com',
    });
  });

  it('keeps at most MAX_TRACE_FILES traces', () => {
    const search = Array.from({ length: MAX_TRACE_FILES + 3 }, (_, i) => `trace=${i}.json`).join('&');
    expect(embedParamsFromSearch(search).traceUrls).toHaveLength(MAX_TRACE_FILES);
  });

  it('reads junk as the default and never throws', () => {
    const p = embedParamsFromSearch('?theme=purple&panels=,,nope&autoplay=maybe&controls=perhaps&speed=fast&t=-3&origin=javascript:alert(1)&trace=');
    expect(p).toEqual(DEFAULT_EMBED_PARAMS);
    for (const junk of ['%', '?t=%E0%A4%A', '?speed=1/0', '?t=1e5', '?t=NaN', '?t=12 parsecs']) expect(() => embedParamsFromSearch(junk)).not.toThrow();
  });
});

describe('embed params from element attributes', () => {
  const element = (attrs: Record<string, string>) => ({ getAttribute: (n: string) => attrs[n] ?? null });

  it('src lists several URLs separated by whitespace (a compare); a bare attribute is on', () => {
    const p = parseEmbedParams(attributeSource(element({ src: ' a.json\n b.json ', autoplay: '', controls: 'false', speed: '0.01', t: '1500' })), 'src');
    expect(p).toMatchObject({ traceUrls: ['a.json', 'b.json'], autoplay: true, controls: false, speed: 0.01, t: 1500 });
  });

  it('an accessor that throws reads as the defaults', () => {
    const broken = { get: () => { throw new Error('x'); }, getAll: () => { throw new Error('x'); } };
    expect(parseEmbedParams(broken)).toEqual(DEFAULT_EMBED_PARAMS);
  });
});

describe('the readers', () => {
  it('flags: present, 1, true, yes, on / 0, false, no, off; else the default', () => {
    for (const on of ['', '1', 'true', 'YES', ' on ']) expect(readFlag(on, false), on).toBe(true);
    for (const off of ['0', 'false', 'No', 'off']) expect(readFlag(off, true), off).toBe(false);
    expect(readFlag(null, true)).toBe(true);
    expect(readFlag('2', false)).toBe(false);
  });

  it('t: µs, with us, µs, ms or s', () => {
    expect(readStartUs('250')).toBe(250);
    expect(readStartUs('250us')).toBe(250);
    expect(readStartUs('250 µs')).toBe(250);
    expect(readStartUs('1.5ms')).toBe(1500);
    expect(readStartUs('0.002s')).toBe(2000);
    expect(readStartUs('0.0000001s')).toBe(0);
    for (const junk of ['', 'ms', '-1ms', '1 h', '1e3', '2000000s', 'x1']) expect(readStartUs(junk), junk).toBeNull();
  });

  it('panels: known names in order, each once', () => {
    expect(readPanels('summary, diagram ,summary')).toEqual(['summary', 'diagram']);
    expect(readPanels('DIAGRAM,table')).toEqual(['diagram']);
    expect(readPanels('')).toEqual(['diagram', 'summary']);
  });

  it('origin: an http(s) origin; a bare host is https', () => {
    expect(readOrigin('https://docs.example.com:8443/x?y')).toBe('https://docs.example.com:8443');
    expect(readOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    expect(readOrigin('docs.example.com')).toBe('https://docs.example.com');
    for (const junk of ['', ' ', 'file:///etc', 'data:text/html,x', 'https://', '*']) expect(readOrigin(junk), junk).toBeNull();
  });
});
