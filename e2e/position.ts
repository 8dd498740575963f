// What the indoor-positioning browser tests share (with consoleSession of console.ts, in the care
// home's time zone): the HTTP uplink of an integration, the open dialog's select, the demo's anchors.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { callApi, type ConsoleSession } from './console.js';

/** Posts one uplink body to an integration, as a network server or gateway would. */
export async function uplink(s: ConsoleSession, integration: string, token: string, body: unknown) {
  const res = await fetch(`${s.server.url}/api/ingest/${integration}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

export const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');

/** Picks an option of a select of the open dialog. */
export async function choose(page: Page, testId: string, option: string) {
  await modal(page).locator(`[data-testid="${testId}"]`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

/** A UWB anchor of the demo care home: its MAC, place on the plan, floor and scene. */
export async function demoUwbAnchor(page: Page, url: string) {
  const scenes = (await callApi(page, url, '/Scene/SceneInfoListByMonitor', { EnabledOnly: false })).Items as { SceneId: number; Name: string; Floors: { FloorId: number; Name: string }[] }[];
  for (const s of scenes) {
    const anchors = (await callApi(page, url, '/Scene/BeaconsInfoByMonitor', { SceneId: s.SceneId })).Items as { Mac: string; Type: number; FloorId: number; X: number; Y: number }[];
    const a = anchors.find((x) => x.Type === 2);
    if (a) return { mac: a.Mac, x: a.X, y: a.Y, floorId: a.FloorId, floorName: s.Floors.find((f) => f.FloorId === a.FloorId)!.Name, sceneName: s.Name };
  }
  throw new Error('the demo care home has no UWB anchor');
}
