// @vitest-environment jsdom
// The live inner map with its calls answered here: the scene's floors with their tag counts, the
// anchors of the floor shown, switching floor and scene, realtime batches moving tags between
// floors, SOS from a realtime alarm, the search selecting a tag on another floor with its card, and
// the indoor history loaded from the card and played back with the floor following the track.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { App } from 'antd';
import type { UserInfo, scene } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { useRealtime } from '../src/realtime/store';
import { IndoorStore } from '../src/indoor/live/indoorStore';
import InnerMapPage from '../src/pages/position/InnerMapPage';
import { tooLong } from '../src/pages/position/inner/HistoryPanel';
import dayjs from 'dayjs';
import { polyfillDom } from './dom';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

const sceneRow = (SceneId: number, Name: string) => ({
  SceneId,
  UserId: 1,
  OwnerLoginName: 'admin',
  Name,
  Lat: 22.5,
  Lon: 114,
  Address: 'Shenzhen',
  Enabled: true,
  BeaconType: 1,
  Method: 1,
  MapUrl: null,
  IconUrl: null,
  FloorCount: 2,
  AnchorCount: 3,
  CreatedAt: '2026-11-01T00:00:00Z',
});
const floorRow = (FloorId: number, SceneId: number, FloorNo: number, Name: string) => ({
  FloorId,
  SceneId,
  FloorNo,
  Name,
  Description: '',
  Type: 1,
  PlanUrl: `/uploads/plan-${FloorId}.png`,
  Width: 1000,
  Height: 800,
  MetresPerPixel: 0.05,
  Geo: null,
  Exponent: 2,
  AnchorCount: 1,
});
const anchor = (BeaconId: number, FloorId: number, Type: number, State = 1) => ({
  BeaconId,
  SceneId: 1,
  FloorId,
  Name: `Anchor ${BeaconId}`,
  Mac: 'AA:BB:CC:DD:EE:FF',
  Code: '12345678901234',
  Major: 1,
  Minor: BeaconId,
  Type,
  State,
  X: 5,
  Y: 5,
  Height: 2.5,
  Heading: 90,
  Rssi1m: -59,
  CreatedAt: '2026-11-01T00:00:00Z',
});
const device = (over: Partial<scene.IndoorDevice>): scene.IndoorDevice => ({
  DeviceId: 1,
  Imei: '865000000000001',
  Name: 'Grandma Li',
  FloorId: 10,
  X: 10,
  Y: 10,
  Accuracy: 1.2,
  Method: 'trilateration',
  Lat: null,
  Lon: null,
  Time: '2026-11-25T08:00:00Z',
  Online: true,
  Battery: 76,
  Sos: false,
  ...over,
});

const floors: Record<number, ReturnType<typeof floorRow>[]> = {
  1: [floorRow(11, 1, 2, '2F'), floorRow(10, 1, 1, '1F')],
  2: [floorRow(20, 2, 1, 'Lobby')],
};
const anchors = [anchor(101, 10, 1), anchor(102, 10, 3), anchor(103, 11, 2), anchor(104, 11, 1, 2)];
const live: Record<number, scene.IndoorDevice[]> = {
  1: [
    device({}),
    device({ DeviceId: 2, Imei: '865000000000002', Name: 'Nurse Wang', FloorId: 11, X: 20, Y: 8 }),
    device({ DeviceId: 3, Imei: '865000000000003', Name: 'Uncle Zhao', FloorId: 11, X: 30, Y: 8, Sos: true, Online: false }),
  ],
  2: [device({ DeviceId: 9, Imei: '865000000000009', Name: 'Guard', FloorId: 20 })],
};
const track = [
  { Time: '2026-11-25T08:00:00Z', SceneId: 1, FloorId: 11, X: 20, Y: 8, Accuracy: 1, Method: 'uwb' },
  { Time: '2026-11-25T08:01:00Z', SceneId: 1, FloorId: 11, X: 22, Y: 9, Accuracy: 1, Method: 'uwb' },
  { Time: '2026-11-25T08:02:00Z', SceneId: 1, FloorId: 10, X: 12, Y: 9, Accuracy: 1, Method: 'uwb' },
  { Time: '2026-11-25T08:03:00Z', SceneId: 1, FloorId: 10, X: 14, Y: 9, Accuracy: 1, Method: 'uwb' },
];

let sent: { path: string; body: Record<string, unknown> }[] = [];
function answer(path: string, body: Record<string, unknown>): unknown {
  switch (path) {
    case '/Scene/SceneInfoListByMonitor':
      return { State: 200, Items: [1, 2].map((id) => ({ ...sceneRow(id, id === 1 ? 'Sunshine Care Home' : 'Head Office'), Floors: floors[id] })) };
    case '/Scene/sceneInfoByMonitor': {
      const id = body.SceneId as number;
      return { State: 200, Item: { ...sceneRow(id, id === 1 ? 'Sunshine Care Home' : 'Head Office'), Floors: floors[id], Anchors: id === 1 ? anchors : [] } };
    }
    case '/Scene/sceneInfoByMonitorForServer':
      return { State: 200, Items: live[body.SceneId as number] ?? [] };
    case '/Scene/deviceHistoryForScene':
      return { State: 200, DeviceId: body.DeviceId, Items: track };
    default:
      return { State: 200, Total: 0, Items: [] };
  }
}

let store: IndoorStore;
function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/position/innerMap']}>
        <App>
          <InnerMapPage store={store} />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const page = () => screen.getByTestId('inner-map');
const floorCount = (id: number) => screen.getByTestId(`floor-${id}`).getAttribute('data-count');
const anchorIds = () => [...document.querySelectorAll('[data-testid="anchor-markers"] > g[data-type]')].map((e) => Number(e.getAttribute('data-testid')!.slice('anchor-'.length)));

beforeAll(async () => {
  polyfillDom();
  // jsdom draws nothing: the canvas layer is left out (its drawing is tested on its own).
  HTMLCanvasElement.prototype.getContext = (() => null) as unknown as typeof HTMLCanvasElement.prototype.getContext;
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  store = new IndoorStore();
  useRealtime.setState({ sosDevices: new Set() });
  useSession.setState({ userInfo: { UserId: 1, LoginName: 'admin', timeZoneOffset: 480, Permissions: ['*'] } as unknown as UserInfo });
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    return new Response(JSON.stringify(answer(path, body)), { status: 200 });
  }) as typeof fetch);
});
afterEach(() => cleanup());

describe('inner map', () => {
  it('opens the first scene on its lowest floor with the tag count of each floor and the floor’s anchors', async () => {
    renderPage();
    await waitFor(() => expect(page().getAttribute('data-seeded')).toBe('1'));
    expect(page().getAttribute('data-scene')).toBe('1');
    // Floors by number: 1F first, though listed second.
    expect(page().getAttribute('data-floor')).toBe('10');
    await waitFor(() => expect(floorCount(11)).toBe('2'));
    expect(floorCount(10)).toBe('1');
    expect(anchorIds()).toEqual([101, 102]);
    expect(screen.getByTestId('anchor-102').getAttribute('data-type')).toBe('3');
    // The AOA locator shows its heading.
    expect(screen.getByTestId('anchor-heading-102')).toBeTruthy();
    expect(sent.find((s) => s.path === '/Scene/sceneInfoByMonitorForServer')!.body).toMatchObject({ SceneId: 1 });
    expect(within(screen.getByTestId('inner-legend')).getByText('Online 1')).toBeTruthy();

    // jsdom lays nothing out: the plan is at zoom 1 from the corner, 20 px a metre (5 cm a pixel).
    // A click next to Grandma Li (10 m, 10 m) opens her card; a click on an empty spot closes it.
    const plan = screen.getByTestId('inner-plan');
    fireEvent.pointerDown(plan, { button: 0, pointerId: 1, clientX: 203, clientY: 198 });
    fireEvent.pointerUp(plan, { button: 0, pointerId: 1, clientX: 203, clientY: 198 });
    expect((await screen.findByTestId('tag-card')).getAttribute('data-device')).toBe('1');
    fireEvent.pointerDown(plan, { button: 0, pointerId: 1, clientX: 600, clientY: 500 });
    fireEvent.pointerUp(plan, { button: 0, pointerId: 1, clientX: 600, clientY: 500 });
    await waitFor(() => expect(screen.queryByTestId('tag-card')).toBeNull());

    fireEvent.click(within(screen.getByTestId('floor-switch')).getByText('2F'));
    await waitFor(() => expect(page().getAttribute('data-floor')).toBe('11'));
    expect(anchorIds()).toEqual([103, 104]);
    expect(screen.getByTestId('anchor-104').getAttribute('data-state')).toBe('2');
    // One SOS on 2F (from the snapshot).
    expect(screen.getByTestId('sos-count').textContent).toBe('1');
  });

  it('follows realtime batches and SOS alarms, and switches scene', async () => {
    renderPage();
    await waitFor(() => expect(floorCount(11)).toBe('2'));
    // Grandma Li takes the lift to 2F; a tag not seen before arrives on 1F.
    act(() => store.apply([{ i: 1, ls: Date.now(), in: { sc: 1, f: 11, x: 5, y: 5, mt: 'uwb' } }, { i: 42, ls: Date.now(), in: { sc: 1, f: 10, x: 1, y: 1, mt: 'nearest' }, on: true }]));
    await waitFor(() => expect(floorCount(11)).toBe('3'));
    expect(floorCount(10)).toBe('1');
    // She walks out of the building.
    act(() => store.apply([{ i: 1, ls: Date.now(), in: null }]));
    await waitFor(() => expect(floorCount(11)).toBe('2'));
    // An SOS alarm for Nurse Wang: two SOS on 2F.
    fireEvent.click(within(screen.getByTestId('floor-switch')).getByText('2F'));
    act(() => useRealtime.setState({ sosDevices: new Set([2]) }));
    await waitFor(() => expect(screen.getByTestId('sos-count').textContent).toBe('2'));
    act(() => useRealtime.setState({ sosDevices: new Set() }));
    await waitFor(() => expect(screen.getByTestId('sos-count').textContent).toBe('1'));

    fireEvent.mouseDown(within(page()).getByTestId('scene-select').querySelector('.ant-select-selector') ?? within(page()).getByTestId('scene-select'));
    fireEvent.click(await screen.findByText('Head Office', { selector: '.ant-select-item-option-content *, .ant-select-item-option-content' }));
    await waitFor(() => expect(page().getAttribute('data-scene')).toBe('2'));
    await waitFor(() => expect(page().getAttribute('data-seeded')).toBe('1'));
    expect(page().getAttribute('data-floor')).toBe('20');
    expect(sent.filter((s) => s.path === '/Scene/sceneInfoByMonitor').map((s) => s.body.SceneId)).toEqual([1, 2]);
    await waitFor(() => expect(floorCount(20)).toBe('1'));
  });

  it('finds a tag by name, switches to its floor and opens its card; the card loads its history, played with the floor following the track', async () => {
    renderPage();
    await waitFor(() => expect(page().getAttribute('data-seeded')).toBe('1'));
    const search = screen.getByTestId('tag-search');
    const input = (search.tagName === 'INPUT' ? search : search.querySelector('input'))!;
    fireEvent.change(input, { target: { value: 'nurse' } });
    fireEvent.click(await screen.findByTestId('tag-option-2'));
    await waitFor(() => expect(page().getAttribute('data-floor')).toBe('11'));
    const card = await screen.findByTestId('tag-card');
    expect(within(card).getByTestId('tag-card-imei').textContent).toBe('865000000000002');
    expect(within(card).getByText('Nurse Wang', { selector: '.ant-card-head *' })).toBeTruthy();
    expect(within(card).getByText('76%')).toBeTruthy();
    expect(within(card).getByText('Trilateration')).toBeTruthy();
    expect(within(card).getByText('1.2 m')).toBeTruthy();
    // By IMEI too.
    fireEvent.change(input, { target: { value: '0000003' } });
    fireEvent.click(await screen.findByTestId('tag-option-3'));
    await waitFor(() => expect(screen.getByTestId('tag-card').getAttribute('data-device')).toBe('3'));
    expect(within(screen.getByTestId('tag-card')).getByTestId('tag-card-sos')).toBeTruthy();

    fireEvent.click(within(screen.getByTestId('tag-card')).getByTestId('tag-history'));
    const playback = await screen.findByTestId('playback');
    const call = sent.find((s) => s.path === '/Scene/deviceHistoryForScene')!.body;
    expect(call).toMatchObject({ DeviceId: 3, SceneId: 1 });
    expect(new Date(call.EndTime as string).getTime() - new Date(call.StartTime as string).getTime()).toBeLessThanOrEqual(86_400_000);
    expect(screen.getByTestId('track').getAttribute('data-runs')).toBe('1');
    expect(playback.getAttribute('data-state')).toBe('idle');

    // 1x..32x, as on the outdoor history page.
    expect(within(playback).getByTestId('play-speed').textContent).toBe('4×');
    fireEvent.click(within(playback).getByTestId('faster'));
    expect(within(playback).getByTestId('play-speed').textContent).toBe('8×');
    for (let k = 0; k < 5; k++) fireEvent.click(within(playback).getByTestId('slower'));
    expect(within(playback).getByTestId('play-speed').textContent).toBe('1×');
    for (let k = 0; k < 2; k++) fireEvent.click(within(playback).getByTestId('faster'));
    fireEvent.click(within(playback).getByTestId('play'));
    await waitFor(() => expect(screen.getByTestId('playback').getAttribute('data-state')).toBe('playing'));
    // It steps through the points to the end, on 1F where the track ends.
    await waitFor(() => expect(screen.getByTestId('playback').getAttribute('data-index')).toBe('1'));
    await waitFor(() => expect(screen.getByTestId('playback').getAttribute('data-state')).toBe('finished'));
    expect(screen.getByTestId('playback').getAttribute('data-index')).toBe('3');
    expect(page().getAttribute('data-floor')).toBe('10');
    expect(screen.getByTestId('track-current')).toBeTruthy();
    expect(screen.getByTestId('play-point').textContent).toContain('1F');
  });

  it('asks the last hour for the device chosen in the panel, and holds a range over 7 days back', async () => {
    renderPage();
    await waitFor(() => expect(page().getAttribute('data-seeded')).toBe('1'));
    const history = screen.getByTestId('inner-history');
    fireEvent.mouseDown(within(history).getByTestId('history-device').querySelector('.ant-select-selector') ?? within(history).getByTestId('history-device'));
    fireEvent.click(await screen.findByText('Uncle Zhao (865000000000003)', { selector: '.ant-select-item-option-content *, .ant-select-item-option-content' }));
    fireEvent.click(within(history).getByTestId('range-hour'));
    fireEvent.click(within(history).getByTestId('history-query'));
    await screen.findByTestId('playback');
    const call = sent.find((s) => s.path === '/Scene/deviceHistoryForScene')!.body;
    expect(call.DeviceId).toBe(3);
    expect(new Date(call.EndTime as string).getTime() - new Date(call.StartTime as string).getTime()).toBeCloseTo(3_600_000, -4);
    // The track starts on 2F: the plan shows it before playing.
    await waitFor(() => expect(page().getAttribute('data-floor')).toBe('11'));
    expect(screen.getByTestId('track').getAttribute('data-runs')).toBe('1');
    fireEvent.click(within(history).getByTestId('history-clear'));
    await waitFor(() => expect(screen.queryByTestId('playback')).toBeNull());

    const now = dayjs();
    expect(tooLong([now.subtract(7, 'day'), now])).toBe(false);
    expect(tooLong([now.subtract(7, 'day').subtract(1, 'minute'), now])).toBe(true);
  });
});
