import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAYBACK_SPEED, PLAYBACK_SPEEDS } from '../interaction/playback-clock.ts';
import {
  DEFAULT_DISPLAY_PARAMS, displayHashFields, formatDisplayHashParams, parseDisplayHashParams, parseTimeWindow, snapSpeed,
} from './display-hash-params.ts';

const parse = parseDisplayHashParams;

describe('display hash params: zoom', () => {
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

describe('display hash params: playhead and speed', () => {
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

  it('reads a bad or absurd speed as the default', () => {
    for (const text of ['', '0', '-1', 'fast', '1/0', '0/0', '100', '0.00001', 'NaN', 'Infinity']) {
      expect(parse(`#speed=${encodeURIComponent(text)}`).speed, text).toBe(DEFAULT_PLAYBACK_SPEED);
    }
  });
});

describe('display hash params: repeats and wire view', () => {
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

describe('display hash params: the whole', () => {
  it('reads an empty or unreadable hash, and unknown keys, as the defaults', () => {
    for (const hash of ['', '#', '#%E0%A4%A', '#foo=bar&zoom[]=1', '#t&speed&zoom&repeat&wire']) expect(parse(hash), hash).toEqual(DEFAULT_DISPLAY_PARAMS);
  });

  it('ignores the view keys around it', () => {
    expect(parse('#command=INCR&n=10&mode=both&scale=shared&zoom=5-50&t=20&speed=0.01&theme=dark')).toMatchObject({ zoom: { fromUs: 5, toUs: 50 }, t: 20, speed: 0.01 });
  });

  it('writes defaults as absent keys', () => {
    expect(displayHashFields(DEFAULT_DISPLAY_PARAMS)).toEqual({ zoom: null, t: null, speed: null, repeat: null, wire: null });
    expect(formatDisplayHashParams(DEFAULT_DISPLAY_PARAMS)).toBe('');
  });

  it('writes each key as it reads it back', () => {
    const p = { zoom: { fromUs: 12.5, toUs: 480.125 }, t: 33.3, speed: 0.02, repeats: new Map([[2, 0], [0, 1]]), wire: 1 };
    expect(formatDisplayHashParams(p)).toBe('#zoom=12.5-480.125&t=33.3&speed=0.02&repeat=1%3A2%2C3%3A1&wire=2');
    expect(parse(formatDisplayHashParams(p))).toEqual({ ...p, repeats: new Map([[0, 1], [2, 0]]) });
  });

  it('round-trips: format(parse(x)) is stable for tidy and messy links alike', () => {
    const links = [
      '', '#zoom=1-2', '#zoom=0.1234567-99.99999', '#t=0', '#t=1.0005', '#speed=0.3', '#speed=1/1000', '#repeat=3:1,1:2,1:3', '#wire=4',
      '#zoom=20-10&t=-5&speed=x&repeat=0:0&wire=0', '#zoom=5..7&t=%201%20&speed=%200.5', '#command=PING&zoom=0-1e3', '#%ZZ',
    ];
    for (const link of links) {
      const once = formatDisplayHashParams(parse(link));
      expect(formatDisplayHashParams(parse(once)), link).toBe(once);
      expect(parse(once), link).toEqual(parse(link));
    }
  });
});
