// Follow mode in Chromium against the built app and a private redis-server: a presenter's page shares and
// runs; an attendee's page opened with the follow link draws the presenter's runs without running anything,
// takes the presenter's display keys into its URL, and mirrors the presenter's playhead into its own clock
// (driven here by a presenter over a plain WebSocket, the way a presenter's page sends it); a wrong link and
// an ended session say so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import type { FollowDisplay } from '../trace/protocol/follow-protocol.ts';
import { ServerMessageSchema, type ServerMessage } from '../trace/protocol/live-protocol.ts';
import { requestDone, runPanel, useAppInBrowser } from './app-in-browser.ts';
import { newPage } from './browser.ts';

const ctx = useAppInBrowser();
const banner = (page: Page) => page.locator('[data-testid=follow-banner]');

describe('an attendee follows a presenter’s page', () => {
  let attendee: Page;

  beforeAll(async () => {
    await ctx.page.click('[data-testid=follow-share]');
    const link = ctx.page.locator('[data-testid=follow-link]');
    await link.waitFor();
    attendee = await newPage(ctx.browser);
    await attendee.goto(await link.inputValue());
    await attendee.locator('[data-testid=follow-banner][data-follow-status=following]').waitFor();
  });

  afterAll(async () => {
    await attendee?.close();
  });

  it('shows the presenter the link selected and the follower count, and the attendee no run form or tabs', async () => {
    expect(await ctx.page.locator('[data-testid=follow-link]').inputValue()).toMatch(/\/\?follow=[A-Za-z0-9_-]{22}$/);
    await expect.poll(() => ctx.page.locator('[data-testid=follow-count]').getAttribute('data-followers')).toBe('1');
    const selected = await ctx.page.locator('[data-testid=follow-link]').evaluate((input: HTMLInputElement) => input.selectionStart === 0 && input.selectionEnd === input.value.length);
    expect(selected).toBe(true);
    expect(await banner(attendee).innerText()).toMatch(/^Following the presenter/);
    expect(await attendee.locator('[data-testid=run]').isVisible()).toBe(false);
    expect(await attendee.locator('[data-testid=tab-run]').count()).toBe(0);
  });

  it('draws the presenter’s run on the attendee’s page as the presenter’s page draws it', async () => {
    await ctx.page.click('[data-testid=follow-share]'); // close the panel
    await ctx.page.selectOption('[data-testid=command]', 'INCR');
    await ctx.page.fill('[data-testid=n]', '10');
    await ctx.page.selectOption('[data-testid=mode]', 'both');
    await ctx.page.click('[data-testid=run]');
    await requestDone(ctx.page);
    for (const mode of ['sequential', 'pipeline'] as const) {
      await expect.poll(() => runPanel(attendee, mode).locator('[data-testid=request-arrow]').count(), { timeout: 30_000 }).toBe(10);
      expect(await runPanel(attendee, mode).locator('[data-testid=reply-arrow]').count()).toBe(10);
      const summary = (page: Page) => runPanel(page, mode).locator('[data-testid=summary] [data-metric=client-writes]').getAttribute('data-value');
      expect(await summary(attendee)).toBe(await summary(ctx.page));
    }
  });

  it('takes the presenter’s display keys (the tour step, the zoom) into its URL, not the theme', async () => {
    await ctx.page.evaluate(() => history.replaceState(null, '', `${location.pathname}${location.hash || '#'}&tour=3&zoom=0-40&theme=dark`));
    await expect.poll(() => attendee.evaluate(() => location.hash)).toMatch(/tour=3/);
    expect(await attendee.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('zoom'))).toBe('0-40');
    expect(await attendee.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('theme'))).toBeNull();
  });

  it('says so when the presenter stops sharing', async () => {
    await ctx.page.click('[data-testid=follow-share]');
    await ctx.page.click('[data-testid=follow-stop]');
    await expect.poll(() => banner(attendee).getAttribute('data-follow-status')).toBe('ended');
    expect(await banner(attendee).innerText()).toMatch(/The presenter’s session has ended.*The presenter stopped sharing\./s);
  });
});

/** A presenter over a plain WebSocket (Origin-less, as a script): shares, runs, and moves its playhead. */
class ScriptPresenter {
  readonly messages: ServerMessage[] = [];
  private readonly socket: WebSocket;

  constructor(appUrl: string) {
    this.socket = new WebSocket(appUrl.replace(/^http/, 'ws').replace(/\/$/, '/live'));
    this.socket.on('message', (data) => this.messages.push(ServerMessageSchema.parse(JSON.parse(data.toString()))));
  }

  async open(): Promise<void> {
    await new Promise((resolve, reject) => this.socket.once('open', resolve).once('error', reject));
  }

  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  async next<T extends ServerMessage['type']>(type: T, match: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true): Promise<Extract<ServerMessage, { type: T }>> {
    await expect.poll(() => this.messages.some((m) => m.type === type && match(m as Extract<ServerMessage, { type: T }>)), { timeout: 60_000 }).toBe(true);
    return this.messages.find((m) => m.type === type && match(m as Extract<ServerMessage, { type: T }>)) as Extract<ServerMessage, { type: T }>;
  }

  close(): void {
    this.socket.close();
  }
}

describe('the attendee’s playhead follows the presenter’s', () => {
  it('mirrors position, playing and speed into the page’s clock, and ends with the presenter', async () => {
    const presenter = new ScriptPresenter(ctx.app.url);
    await presenter.open();
    presenter.send({ type: 'follow-start' });
    const { code } = await presenter.next('follow-started');
    const attendee = await newPage(ctx.browser);
    await attendee.goto(`${ctx.app.url}?follow=${code}`);
    await expect.poll(() => banner(attendee).getAttribute('data-follow-status')).toBe('following');
    presenter.send({ type: 'run', requestId: 'script-1', spec: { command: 'PING', n: 10, modes: ['pipeline'], repeats: 1 } });
    const end = await presenter.next('run-end');
    await expect.poll(() => runPanel(attendee, 'pipeline').locator('[data-testid=request-arrow]').count(), { timeout: 30_000 }).toBe(10);

    const positionUs = Math.floor(end.doneUs / 2);
    const display: FollowDisplay = { view: 'run', scale: 'shared', positionUs, playing: false, speed: 0.01, keys: {} };
    presenter.send({ type: 'follow-display', display });
    await expect.poll(() => banner(attendee).getAttribute('data-position-us')).toBe(String(positionUs));
    expect(await banner(attendee).getAttribute('data-playing')).toBe('false');
    expect(await banner(attendee).getAttribute('data-speed')).toBe('0.01');

    presenter.send({ type: 'follow-display', display: { ...display, positionUs: 0, playing: true, speed: 0.001 } });
    await expect.poll(() => banner(attendee).getAttribute('data-playing')).toBe('true');
    expect(await banner(attendee).getAttribute('data-speed')).toBe('0.001');

    presenter.send({ type: 'follow-display', display: { ...display, positionUs: null } });
    await expect.poll(() => banner(attendee).getAttribute('data-position-us')).toBe('');

    presenter.close();
    await expect.poll(() => banner(attendee).getAttribute('data-follow-status')).toBe('ended');
    expect(await banner(attendee).innerText()).toMatch(/closed their page or lost their connection/);
    await attendee.close();
  });

  it('says when the link’s code is unknown, or not a code at all', async () => {
    const attendee = await newPage(ctx.browser);
    await attendee.goto(`${ctx.app.url}?follow=AAAAAAAAAAAAAAAAAAAAAA`);
    await expect.poll(() => banner(attendee).getAttribute('data-follow-status')).toBe('refused');
    expect(await banner(attendee).innerText()).toMatch(/No follow session has this code/);
    await attendee.goto(`${ctx.app.url}?follow=abc`);
    await expect.poll(() => banner(attendee).getAttribute('data-follow-status')).toBe('refused');
    expect(await banner(attendee).innerText()).toMatch(/This follow link is incomplete or mistyped/);
    await attendee.close();
  });
});
