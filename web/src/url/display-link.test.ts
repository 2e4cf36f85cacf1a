import { describe, expect, it } from 'vitest';
import { PLAYBACK_SPEEDS } from '../interaction/playback-clock.ts';
import { parseTimeWindow, snapSpeed } from '../state/link-values.ts';
import { DEFAULT_DISPLAY_LINK, displayKeysOf, displayLinkEntries, displayLinkOfHash, displayWithKeys, type DisplayLink } from './display-link.ts';
import { hashOf } from './link-fields.ts';

const parse = displayLinkOfHash;
/** The display keys alone, as a hash ('' when all are defaults). */
const writeDisplay = (p: DisplayLink) => hashOf(displayLinkEntries(p));

describe('the display keys: zoom', () => {
  it('reads a µs window since t0, decimals allowed', () => {
    expect(parse('#zoom=120-480').zoom).toEqual({ fromUs: 120, toUs: 480 });
    expect(parse('#zoom=0.5-12.25').zoom).toEqual({ fromUs: 0.5, toUs: 12.25 });
    expect(parse('zoom=%20.5%20-%202').zoom).toEqual({ fromUs: 0.5, toUs: 2 });
  });

  it('takes the separators people type: -, –, .., comma', () => {
    for (const text of ['10-20', '10–20', '10..20', '10,20', ' 10 - 20 ']) expect(parseTimeWindow(text)).toEqual({ fromUs: 10, toUs: 20 });
  });

  it('rounds to ns', () => {
    expect(parseTimeWindow('1.23456-2.0004')).toEqual({ fromUs: 1.235, toUs: 2 });
  });

  it('treats junk, negatives, reversed, empty, NaN and huge windows as no zoom', () => {
    for (const text of ['', 'abc', '-5-10', '5--10', '20-10', '10-10', 'NaN-5', '1-Infinity', '1e3-2e3', '0-1e13', '0-9999999999999', '1-2-3', '0x10-0x20', '5', '0.0001-0.0002']) {
      expect(parseTimeWindow(text), text).toBeNull();
    }
    expect(parse('#zoom').zoom).toBeNull();
    expect(parse('#zoom=').zoom).toBeNull();
  });
});

describe('the display keys: playhead and speed', () => {
  it('reads t in µs; absent or bad means no playback', () => {
    expect(parse('#t=250').t).toBe(250);
    expect(parse('#t=0').t).toBe(0);
    expect(parse('#t=12.3456').t).toBe(12.346);
    for (const text of ['', '-1', 'x', 'NaN', 'Infinity', '1e5', '2000000000000', '1,5']) expect(parse(`#t=${text}`).t, text).toBeNull();
    expect(parse('#command=INCR').t).toBeNull();
  });

  it('snaps speed to the nearest playback speed, on a log scale', () => {
    expect(snapSpeed('0.001')).toBe(0.001);
    expect(snapSpeed('1')).toBe(1);
    expect(snapSpeed('0.3')).toBe(0.2);
    expect(snapSpeed('0.0015')).toBe(0.002);
    expect(snapSpeed('0.0001')).toBe(0.001);
    expect(snapSpeed('5')).toBe(1);
    expect(snapSpeed('1/1000')).toBe(0.001);
    expect(snapSpeed(' 1 / 20 ')).toBe(0.05);
    for (const s of PLAYBACK_SPEEDS) expect(snapSpeed(String(s))).toBe(s);
  });

  it('reads a bad or absurd speed, and the default one, as none (the default)', () => {
    expect(parse('#speed=0.001').speed).toBeNull();
    for (const text of ['', '0', '-1', 'fast', '1/0', '0/0', '100', '0.00001', 'NaN', 'Infinity']) {
      expect(parse(`#speed=${encodeURIComponent(text)}`).speed, text).toBeNull();
    }
  });
});

describe('the display keys: repeats and wire view', () => {
  it('reads the picked repeat per panel, 1-based in the link', () => {
    expect([...parse('#repeat=2:3,1:2').repeats]).toEqual([[1, 2], [0, 1]]);
    expect([...parse('#repeat=2.3').repeats]).toEqual([[1, 2]]);
  });

  it('skips bad pairs and keeps the first pick of a panel', () => {
    expect([...parse('#repeat=0:1,x,2:0,3:1:2,2:1,2:2,-1:1').repeats]).toEqual([[1, 0]]);
    expect(parse('#repeat=99999:1').repeats.size).toBe(0);
  });

  it('reads the wire view panel; anything else is the first', () => {
    expect(parse('#wire=2').wire).toBe(1);
    for (const text of ['0', '-1', 'x', '1.5', '100000']) expect(parse(`#wire=${text}`).wire, text).toBe(0);
  });
});

describe('the display keys: theme, presenter mode and tour', () => {
  it('reads auto, light and dark; anything else names no theme', () => {
    expect(parse('#n=10&theme=light').theme).toBe('light');
    expect(parse('#theme=auto').theme).toBe('auto');
    for (const text of ['sepia', 'Dark', '']) expect(parse(`#theme=${text}`).theme, text).toBeNull();
  });

  it('reads present=1 alone as presenter mode, and a tour step within the tour', () => {
    expect(parse('#present=1').present).toBe(true);
    for (const text of ['true', '0', '']) expect(parse(`#present=${text}`).present, text).toBe(false);
    expect(parse('#tour=3').tour).toBe(3);
    expect(parse('#tour=0').tour).toBe(1);
    expect(parse('#tour=99').tour).toBeGreaterThan(1);
    expect(parse('#tour=x').tour).toBeNull();
  });
});

describe('the display keys: the whole', () => {
  it('reads an empty or unreadable hash, and unknown keys, as the defaults', () => {
    for (const hash of ['', '#', '#%E0%A4%A', '#foo=bar&zoom[]=1', '#t&speed&zoom&repeat&wire']) expect(parse(hash), hash).toEqual(DEFAULT_DISPLAY_LINK);
  });

  it('ignores the view keys around it', () => {
    expect(parse('#command=INCR&n=10&mode=both&scale=shared&zoom=5-50&t=20&speed=0.01&theme=dark')).toMatchObject({ zoom: { fromUs: 5, toUs: 50 }, t: 20, speed: 0.01 });
  });

  it('writes defaults as absent keys', () => {
    expect(displayKeysOf(DEFAULT_DISPLAY_LINK)).toEqual({});
    expect(displayKeysOf({ ...DEFAULT_DISPLAY_LINK, speed: 0.001 })).toEqual({}); // the default speed, named
    expect(writeDisplay(DEFAULT_DISPLAY_LINK)).toBe('');
  });

  it('writes each key as it reads it back, in the one order', () => {
    const p: DisplayLink = {
      zoom: { fromUs: 12.5, toUs: 480.125 }, t: 33.3, speed: 0.02, theme: 'dark', present: true, tour: 2, repeats: new Map([[2, 0], [0, 1]]), wire: 1,
    };
    expect(writeDisplay(p)).toBe('#t=33.3&speed=0.02&zoom=12.5-480.125&theme=dark&present=1&tour=2&repeat=1%3A2%2C3%3A1&wire=2');
    expect(parse(writeDisplay(p))).toEqual({ ...p, repeats: new Map([[0, 1], [2, 0]]) });
  });

  it('sets some keys from their text, as a link would read them, and removes others', () => {
    const p = parse('#zoom=1-2&theme=light&tour=4');
    expect(displayKeysOf(displayWithKeys(p, { zoom: '5-7', tour: null }))).toEqual({ zoom: '5-7', theme: 'light' });
    expect(displayWithKeys(p, { zoom: 'junk' }).zoom).toBeNull();
  });

  it('round-trips: format(parse(x)) is stable for tidy and messy links alike', () => {
    const links = [
      '', '#zoom=1-2', '#zoom=0.1234567-99.99999', '#t=0', '#t=1.0005', '#speed=0.3', '#speed=1/1000', '#repeat=3:1,1:2,1:3', '#wire=4',
      '#zoom=20-10&t=-5&speed=x&repeat=0:0&wire=0', '#zoom=5..7&t=%201%20&speed=%200.5', '#command=PING&zoom=0-1e3', '#%ZZ',
    ];
    for (const link of links) {
      const once = writeDisplay(parse(link));
      expect(writeDisplay(parse(once)), link).toBe(once);
      expect(parse(once), link).toEqual(parse(link));
    }
  });
});
