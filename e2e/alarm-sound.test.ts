// The alarm sound in a real browser, against a real server process and a simulated watch: each
// alarm type's ring type and the user's "ring" alarm setting behave as named. The page's media
// element is instrumented (every play() and pause() is counted; a sound played once "ends" at once),
// alarms are raised by the watch through the server, and the plays are counted:
// - silent (removal set silent): no play;
// - a few sounds (low battery, as seeded): exactly FEW_SOUNDS plays, none looping;
// - the setting "ring" on a type set silent (fall): one looping play while its pop-up is open,
//   stopped when the pop-up closes by itself;
// - keep ringing (SOS, as seeded): one looping play until its pop-up is closed.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { AlarmType } from '@wt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login } from './console.js';
import { FEW_SOUNDS } from '../web/src/realtime/alarmSound.js';

const IMEI = '865000000000007';
let server: ServerProcess;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let errors: string[];
let sim: Simulator | undefined;

interface Play {
  loop: boolean;
}
declare global {
  interface Window {
    __plays: Play[];
    __pauses: number;
  }
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ctx = await newContext(browser);
  page = await ctx.newPage();
  errors = watchErrors(page);
  await page.addInitScript(() => {
    window.__plays = [];
    window.__pauses = 0;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      window.__plays.push({ loop: this.loop });
      if (!this.loop) setTimeout(() => this.dispatchEvent(new Event('ended')), 30);
      return Promise.resolve();
    };
    HTMLMediaElement.prototype.pause = function () {
      window.__pauses++;
    };
  });
});
afterAll(async () => {
  await sim?.stop();
  await ctx?.close();
  await browser?.close();
  await server?.stop();
});

const plays = () => page.evaluate(() => window.__plays);
const pauses = () => page.evaluate(() => window.__pauses);
const sound = () => page.locator('[data-testid="alarm-sound"]').getAttribute('data-sound');
const popup = (type: number): Locator => page.locator('.ant-notification-notice', { has: page.locator(`.wt-alarm-note[data-alarm-type="${type}"]`) }).first();

async function setRing(types: AlarmType[], code: number, ringType: number) {
  const t = types.find((x) => x.Code === code)!;
  const { Id, Code, NameZh, NameEn, DescriptionZh, DescriptionEn, Category, Level, MinValue, MaxValue, PagePush, Enabled } = t;
  const r = await callApi(page, server.url, '/ExceptionMessage/saveExceptionType', { Id, Code, NameZh, NameEn, DescriptionZh, DescriptionEn, Category, Level, MinValue, MaxValue, RingType: ringType, PagePush, Enabled });
  expect(r.State).toBe(200);
}

describe('alarm sound', () => {
  it('rings each alarm as its type and the user setting say: silent, a few sounds, ring, keep ringing', async () => {
    await login(page, server.url);
    const types = (await callApi<{ Items: AlarmType[] }>(page, server.url, '/ExceptionMessage/ExcdeptionListWhitoutCode', {})).Items;
    // As seeded: offline is silent, low battery a few sounds, SOS keeps ringing.
    expect(types.find((x) => x.Code === 40)!.RingType).toBe(3);
    expect(types.find((x) => x.Code === 10)!.RingType).toBe(2);
    expect(types.find((x) => x.Code === 5)!.RingType).toBe(1);
    await setRing(types, 151, 3);
    await setRing(types, 150, 3);
    const fall = types.find((x) => x.Code === 150)!;
    expect((await callApi(page, server.url, '/ExceptionMessage/saveAlarmRules', { ExceptionTypeId: fall.Id, NewState: 1, RingType: 3 })).State).toBe(200);
    // The console reads the types and settings afresh.
    await page.reload();
    await page.locator('[data-testid="alarm-sound"][data-realtime="open"][data-rules="1"]').waitFor({ state: 'attached', timeout: 30_000 });

    sim = await startSimulator({
      devices: [{ imei: IMEI, protocol: 'watch' }],
      ports: { watch: server.ports.WATCH_PORT },
      interval: 600,
      healthInterval: 3600,
      seed: 7,
      rates: { sos: 0, fall: 0, removal: 0, highHeartRate: 0 },
    });
    await expect.poll(() => sim!.stats().connected, { timeout: 20_000 }).toBe(1);

    // Silent, then a few sounds: the few sounds are all that played.
    sim.trigger(IMEI, 'removal');
    await popup(151).waitFor({ timeout: 30_000 });
    await expect(popup(151).locator('.wt-alarm-note').getAttribute('data-ring')).resolves.toBe('none');
    sim.trigger(IMEI, 'lowBattery');
    await popup(10).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await plays()).length, { timeout: 10_000 }).toBe(FEW_SOUNDS);
    expect((await plays()).every((p) => !p.loop)).toBe(true);
    expect(await sound()).toBe('off');

    // "Ring" on a silent type: it loops while the pop-up is open, and stops when it closes by itself.
    const pausesBefore = await pauses();
    sim.trigger(IMEI, 'fall');
    await popup(150).waitFor({ timeout: 30_000 });
    await expect.poll(sound, { timeout: 10_000 }).toBe('on');
    expect((await plays()).slice(FEW_SOUNDS)).toEqual([{ loop: true }]);
    await popup(150).waitFor({ state: 'detached', timeout: 15_000 });
    await expect.poll(sound, { timeout: 5_000 }).toBe('off');
    expect(await pauses()).toBeGreaterThan(pausesBefore);

    // Keep ringing: one looping sound until the sticky pop-up is closed.
    sim.trigger(IMEI, 'sos');
    await popup(5).waitFor({ timeout: 30_000 });
    await expect.poll(sound, { timeout: 10_000 }).toBe('on');
    expect((await plays()).slice(FEW_SOUNDS + 1)).toEqual([{ loop: true }]);
    await expect(popup(5).locator('.wt-alarm-note').getAttribute('data-sticky')).resolves.toBe('1');
    await popup(5).locator('.ant-notification-notice-close').click();
    await expect.poll(sound, { timeout: 5_000 }).toBe('off');
    expect((await plays()).length).toBe(FEW_SOUNDS + 2);
    expect(errors).toEqual([]);
  });
});
