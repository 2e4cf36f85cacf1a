import { describe, expect, it } from 'vitest';
import { followLink, followParam, isLoopbackPage } from './follow-link.ts';

const CODE = 'AbCdEfGhIjKlMnOpQrSt_-';

describe('follow link', () => {
  it('reads the code of ?follow=, and says when it cannot be one', () => {
    expect(followParam('')).toBeNull();
    expect(followParam('?trace=a.json')).toBeNull();
    expect(followParam(`?follow=${CODE}`)).toEqual({ code: CODE });
    expect(followParam(`?follow=${CODE.slice(0, 10)}`)).toEqual({ problem: expect.stringMatching(/^This follow link is incomplete or mistyped/) });
    expect(followParam('?follow=')).toEqual({ problem: expect.any(String) });
  });

  it('is the page’s own origin with the code, and reads back', () => {
    const link = followLink({ origin: 'http://192.168.1.20:7380' }, CODE);
    expect(link).toBe(`http://192.168.1.20:7380/?follow=${CODE}`);
    expect(followParam(new URL(link).search)).toEqual({ code: CODE });
  });

  it('knows the names other machines cannot open', () => {
    for (const name of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost']) expect(isLoopbackPage(name)).toBe(true);
    for (const name of ['192.168.1.20', 'laptop.local', 'pipescope.example.com']) expect(isLoopbackPage(name)).toBe(false);
  });
});
