// @vitest-environment jsdom
// The scene administration pages against a mocked server: the scene list and its dialog (required
// fields, the SVG checked in the browser, a delete refused by the server), the floors and their
// dialog (the PNG's pixel size shown, the plan required), the scale tool turning two clicks and a
// distance into MetresPerPixel, and the anchors page (a click on the plan opens the dialog there,
// the dialog's checks, batch edit, calibration refused and applied). The outdoor map is replaced
// (jsdom has no WebGL); the plan viewer is the real one (jsdom lays nothing out: the viewer is 0×0,
// so the plan is shown at zoom 1 from the corner and a client point is an image pixel).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import type { Anchor, Floor, Scene } from '../src/pages/scene/queries';
import { polyfillDom } from './dom';

vi.mock('../src/pages/scene/PointPickerMap', () => ({
  PointPickerMap: (p: { onPick: (lon: number, lat: number) => void }) => (
    <button type="button" onClick={() => p.onPick(113.95, 22.54)}>
      pick-point
    </button>
  ),
}));
vi.mock('../src/map/MapView', () => ({ MapView: () => <div data-testid="map-view" /> }));

const { default: SceneListPage } = await import('../src/pages/scene/SceneListPage');
const { default: SceneFloorsPage } = await import('../src/pages/scene/SceneFloorsPage');
const { default: SceneBeaconsPage } = await import('../src/pages/scene/SceneBeaconsPage');
const { default: SceneAoaPage } = await import('../src/pages/scene/SceneAoaPage');
const { default: SceneCalibrationPage } = await import('../src/pages/scene/SceneCalibrationPage');

vi.setConfig({ testTimeout: 30_000 });

const SCENE: Scene = {
  SceneId: 3,
  UserId: 1,
  OwnerLoginName: 'admin',
  Name: 'Care home',
  Lat: 22.54,
  Lon: 113.95,
  Address: '1 Garden Road',
  Enabled: true,
  BeaconType: 1,
  Method: 1,
  MapUrl: '/api/files/scene-3.svg',
  IconUrl: null,
  FloorCount: 1,
  AnchorCount: 2,
  CreatedAt: '2026-11-20T08:00:00.000Z',
};
const FLOOR: Floor = {
  FloorId: 7,
  SceneId: 3,
  FloorNo: 1,
  Name: 'Ground',
  Description: 'Lobby and dining room',
  Type: 1,
  PlanUrl: '/api/files/floor-7.png',
  Width: 1000,
  Height: 800,
  MetresPerPixel: 0.05,
  Geo: null,
  Exponent: 2,
  AnchorCount: 2,
};
const anchor = (over: Partial<Anchor>): Anchor => ({
  BeaconId: 11,
  SceneId: 3,
  FloorId: 7,
  Name: 'B-11',
  Mac: 'AC:23:3F:A0:00:11',
  Code: '12345678901234',
  Major: 1,
  Minor: 11,
  Type: 1,
  State: 1,
  X: 5,
  Y: 4,
  Height: 2.5,
  Heading: 0,
  Rssi1m: -59,
  CreatedAt: '2026-11-20T08:00:00.000Z',
  ...over,
});
const ANCHORS = [anchor({}), anchor({ BeaconId: 12, Name: 'AOA-12', Type: 3, X: 20, Y: 10, Heading: 90, Mac: 'AC:23:3F:A0:00:12', Code: '12345678901235' })];

let sent: { path: string; body: Record<string, unknown> }[] = [];
/** Answers replaced by a test: path -> response body (State 200 added) or a refusal. */
let answers: Record<string, object> = {};

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  answers = {};
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    const answer = (data: object) => new Response(JSON.stringify({ State: 200, ...data }), { status: 200 });
    if (answers[path]) return new Response(JSON.stringify({ State: 200, ...answers[path] }), { status: 200 });
    switch (path) {
      case '/Scene/SceneInfoList':
        return answer({ Total: 1, Items: [SCENE] });
      case '/Scene/SceneInfoListByMonitor':
        return answer({ Items: [{ ...SCENE, Floors: [FLOOR] }] });
      case '/Scene/FoorsInfoList':
        return answer({ Total: 1, Items: [FLOOR] });
      case '/Scene/sceneInfoByFoorId':
        return answer({ Item: { ...FLOOR, Scene: SCENE, Anchors: ANCHORS } });
      case '/Scene/BeaconsInfoList':
        return answer({ Total: 2, Items: body.Type === 3 ? ANCHORS.filter((a) => a.Type === 3) : ANCHORS });
      case '/Scene/addSceneInfo':
      case '/Scene/editSceneInfo':
        return answer({ SceneId: 3 });
      case '/Scene/addFoorsInfo':
      case '/Scene/editFoorsInfo':
        return answer({ FloorId: 7 });
      case '/Scene/addBeaconsInfoByMonitor':
      case '/Scene/editBeaconsInfo':
        return answer({ BeaconId: 11 });
      case '/Scene/editBeaconsBatchInfo':
        return answer({ Succeeded: (body.BeaconIds as number[]).length, Failed: [] });
      case '/Scene/ApplyCalibration':
        return answer({});
      case '/user/allChildrenUsers':
        return answer({
          Node: { UserId: 1, ParentId: null, LoginName: 'admin', Username: 'admin', companyName: '', Contact: '', AccountKind: 'company', HasChildren: false },
          Items: [],
          Total: 0,
        });
      default:
        return answer({ Items: [], Total: 0 });
    }
  }) as typeof fetch);
  useSession.setState({
    userId: 1,
    userInfo: { UserId: 1, LoginName: 'admin', Permissions: ['read', 'scene.edit'] } as unknown as UserInfo,
  });
});
afterEach(cleanup);

function renderAt(url: string, path: string, page: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <App>
          <Routes>
            <Route path={path} element={page} />
            <Route path="*" element={<div data-testid="elsewhere" />} />
          </Routes>
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;
const calls = (path: string) => sent.filter((s) => s.path === path);
const fileInput = (testId: string) => screen.getByTestId(testId).closest('.ant-upload')!.querySelector('input[type=file]')!;

/** A PNG's first bytes: the signature and an IHDR of the given size (enough for the size check). */
function png(width: number, height: number): File {
  const b = new Uint8Array(64);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return new File([b], 'plan.png', { type: 'image/png' });
}

/** A click on the plan viewer at a client point (= an image pixel in jsdom). */
function clickPlan(x: number, y: number) {
  const plan = screen.getAllByTestId('plan-view').at(-1)!;
  fireEvent.pointerDown(plan, { button: 0, pointerId: 1, clientX: x, clientY: y });
  fireEvent.pointerUp(plan, { button: 0, pointerId: 1, clientX: x, clientY: y });
}

describe('scene list', () => {
  it('lists the scenes with the limit, and refuses a scene without name, address or map before sending anything', async () => {
    renderAt('/scene/sencelist', '/scene/sencelist', <SceneListPage />);
    const table = await screen.findByTestId('scene-table');
    await within(table).findByText('Care home');
    expect(within(table).getByText('1 Garden Road')).toBeTruthy();
    expect(screen.getByTestId('scene-count').textContent).toBe(t('scene:list.count', { count: 1, max: 5 }));
    fireEvent.click(screen.getByTestId('scene-add'));
    await screen.findByTestId('scene-form');
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:scene.nameRequired'))).toBeTruthy();
    expect(screen.getByText(t('messages:scene.addressRequired'))).toBeTruthy();
    expect(screen.getByText(t('messages:scene.mapRequired'))).toBeTruthy();
    expect(calls('/Scene/addSceneInfo')).toEqual([]);

  });

  it('keeps a map that is no SVG out, and sends a scene with its SVG map and the point picked on the map', async () => {
    renderAt('/scene/sencelist', '/scene/sencelist', <SceneListPage />);
    await screen.findByText('Care home');
    fireEvent.click(screen.getByTestId('scene-add'));
    await screen.findByTestId('scene-form');
    fireEvent.change(fileInput('scene-map-upload'), { target: { files: [png(10, 10)] } });
    expect(await screen.findByText(t('messages:scene.mapType'))).toBeTruthy();
    expect(screen.queryByTestId('scene-map-upload-preview')).toBeNull();

    const svg = new File(['<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'], 'map.svg', {
      type: 'image/svg+xml',
    });
    fireEvent.change(fileInput('scene-map-upload'), { target: { files: [svg] } });
    await screen.findByTestId('scene-map-upload-preview');
    fireEvent.change(screen.getByTestId('scene-name'), { target: { value: 'Clinic' } });
    fireEvent.change(screen.getByTestId('scene-address'), { target: { value: '2 Hill Street' } });
    fireEvent.click(screen.getByTestId('scene-pick-location'));
    fireEvent.click(screen.getByText('pick-point'));
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Scene/addSceneInfo')).toHaveLength(1));
    const body = calls('/Scene/addSceneInfo')[0]!.body;
    expect(body).toMatchObject({ Name: 'Clinic', Address: '2 Hill Street', Lat: 22.54, Lon: 113.95, Enabled: true, BeaconType: 1, Method: 2 });
    expect(String(body.MapSvg)).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('shows the server refusing to delete a scene with anchors deployed', async () => {
    answers['/Scene/DeleteSceneInfo'] = { Succeeded: 0, Failed: [{ Imei: '3', Message: 'scene.anchorsDeployed' }] };
    renderAt('/scene/sencelist', '/scene/sencelist', <SceneListPage />);
    await screen.findByText('Care home');
    fireEvent.click(screen.getByTestId('scene-delete-3'));
    fireEvent.click(await screen.findByRole('button', { name: /OK/ }));
    expect(await screen.findByText(t('messages:scene.anchorsDeployed'))).toBeTruthy();
    expect(calls('/Scene/DeleteSceneInfo')[0]!.body).toEqual({ SceneIds: [3] });
  });

  it('opens a scene\'s floors', async () => {
    renderAt('/scene/sencelist', '/scene/sencelist', <SceneListPage />);
    await screen.findByText('Care home');
    fireEvent.click(screen.getByTestId('scene-floors-3'));
    expect(await screen.findByTestId('elsewhere')).toBeTruthy();
  });
});

describe('floors', () => {
  it('lists a scene\'s floors with their scale, and asks for a plan before adding one; a picked PNG shows its pixel size', async () => {
    renderAt('/scene/floors?scene=3', '/scene/floors', <SceneFloorsPage />);
    const table = await screen.findByTestId('floor-table');
    await within(table).findByText('Ground');
    expect(within(table).getByTestId('floor-scale-set-7').textContent).toBe(t('scene:scale.value', { value: 0.05 }));
    expect(calls('/Scene/FoorsInfoList')[0]!.body).toMatchObject({ SceneId: 3, PageNo: 1 });

    fireEvent.click(screen.getByTestId('floor-add'));
    await screen.findByTestId('floor-form');
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:scene.planRequired'))).toBeTruthy();

    expect(screen.getByText(t('messages:scene.floorNameRequired'))).toBeTruthy();
    expect(calls('/Scene/addFoorsInfo')).toEqual([]);

    fireEvent.change(fileInput('floor-plan-upload'), { target: { files: [png(1200, 900)] } });
    expect((await screen.findByTestId('floor-plan-size')).textContent).toBe(t('scene:floor.planSize', { width: 1200, height: 900 }));
    await screen.findByTestId('floor-plan-upload-preview');
    fireEvent.change(screen.getByTestId('floor-no'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('floor-name'), { target: { value: 'First' } });
    fireEvent.change(screen.getByTestId('floor-description'), { target: { value: 'Bedrooms' } });
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Scene/addFoorsInfo')).toHaveLength(1));
    const body = calls('/Scene/addFoorsInfo')[0]!.body;
    expect(body).toMatchObject({ SceneId: 3, FloorNo: 2, Name: 'First', Description: 'Bedrooms', Type: 1 });
    expect(String(body.Plan)).toMatch(/^data:image\/png;base64,/);
  });

  it('refuses a plan larger than 8000 pixels a side in the browser', async () => {
    renderAt('/scene/floors?scene=3', '/scene/floors', <SceneFloorsPage />);
    await screen.findByText('Ground');
    fireEvent.click(screen.getByTestId('floor-add'));
    await screen.findByTestId('floor-form');
    fireEvent.change(fileInput('floor-plan-upload'), { target: { files: [png(9000, 800)] } });
    expect(await screen.findByText(t('messages:scene.planTooLarge', { max: 10, side: 8000 }))).toBeTruthy();
    expect(screen.queryByTestId('floor-plan-size')).toBeNull();
  });

  it('sets the scale from two clicks and a distance, sending the floor\'s other fields unchanged', async () => {
    renderAt('/scene/floors?scene=3', '/scene/floors', <SceneFloorsPage />);
    await screen.findByText('Ground');
    fireEvent.click(screen.getByTestId('floor-scale-7'));
    await screen.findByTestId('scale-distance');
    // 300 px across and 400 px down: 500 px apart.
    clickPlan(100, 100);
    clickPlan(400, 500);
    expect(screen.getByTestId('scale-pixels').textContent).toBe(t('scene:scale.pixels', { pixels: '500.0' }));
    expect((screen.getByTestId('scale-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('scale-distance'), { target: { value: '20' } });
    await waitFor(() => expect(screen.getByTestId('scale-result').textContent).toBe(t('scene:scale.value', { value: 0.04 })));
    fireEvent.click(screen.getByTestId('scale-save'));
    await waitFor(() => expect(calls('/Scene/editFoorsInfo')).toHaveLength(1));
    expect(calls('/Scene/editFoorsInfo')[0]!.body).toEqual({
      FloorId: 7,
      FloorNo: 1,
      Name: 'Ground',
      Description: 'Lobby and dining room',
      Type: 1,
      MetresPerPixel: 0.04,
      Geo: null,
      Exponent: 2,
    });
  });
});

describe('anchors', () => {
  it('draws the floor\'s anchors and opens the dialog where the plan is clicked, checking MAC and code', async () => {
    renderAt('/scene/beacons?scene=3&floor=7', '/scene/beacons', <SceneBeaconsPage />);
    await screen.findByTestId('anchor-marker-11');
    expect(screen.getByTestId('anchor-12').getAttribute('data-type')).toBe('3');
    expect(screen.getByTestId('anchor-heading-12')).toBeTruthy();
    await within(await screen.findByTestId('anchor-table')).findByText('B-11');

    // Image pixel (200, 300) at 0.05 m/px: 10 m, 15 m.
    clickPlan(200, 300);
    await screen.findByTestId('anchor-form');
    expect((screen.getByTestId('anchor-x') as HTMLInputElement).value).toBe('10.00');
    expect((screen.getByTestId('anchor-y') as HTMLInputElement).value).toBe('15.00');
    fireEvent.change(screen.getByTestId('anchor-name'), { target: { value: 'B-20' } });
    fireEvent.change(screen.getByTestId('anchor-mac'), { target: { value: 'AC:23:3F' } });
    fireEvent.change(screen.getByTestId('anchor-code'), { target: { value: '1234' } });
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:scene.macInvalid'))).toBeTruthy();
    expect(screen.getByText(t('messages:scene.codeInvalid'))).toBeTruthy();
    expect(calls('/Scene/addBeaconsInfoByMonitor')).toEqual([]);

    fireEvent.change(screen.getByTestId('anchor-mac'), { target: { value: 'ac:23:3f:a0:00:20' } });
    fireEvent.change(screen.getByTestId('anchor-code'), { target: { value: '12345678901299' } });
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Scene/addBeaconsInfoByMonitor')).toHaveLength(1));
    expect(calls('/Scene/addBeaconsInfoByMonitor')[0]!.body).toMatchObject({
      FloorId: 7,
      Name: 'B-20',
      Mac: 'AC:23:3F:A0:00:20',
      Code: '12345678901299',
      Type: 1,
      State: 1,
      X: 10,
      Y: 15,
      Rssi1m: -59,
    });
  });

  it('moves an anchor dragged on the plan', async () => {
    renderAt('/scene/beacons?scene=3&floor=7', '/scene/beacons', <SceneBeaconsPage />);
    const marker = await screen.findByTestId('anchor-marker-11');
    // From its place (5 m, 4 m = pixel 100, 80) 40 px right and 20 px down: 2 m and 1 m.
    fireEvent.pointerDown(marker, { button: 0, pointerId: 2, clientX: 100, clientY: 80 });
    fireEvent.pointerMove(marker, { pointerId: 2, clientX: 120, clientY: 90 });
    fireEvent.pointerUp(marker, { pointerId: 2, clientX: 140, clientY: 100 });
    await waitFor(() => expect(calls('/Scene/editBeaconsInfo')).toHaveLength(1));
    expect(calls('/Scene/editBeaconsInfo')[0]!.body).toMatchObject({ BeaconId: 11, X: 7, Y: 5, Name: 'B-11', Mac: 'AC:23:3F:A0:00:11' });
    expect(screen.queryByTestId('anchor-form')).toBeNull();
  });

  it('changes the state of the selected anchors, the empty fields kept', async () => {
    renderAt('/scene/beacons?scene=3&floor=7', '/scene/beacons', <SceneBeaconsPage />);
    const table = await screen.findByTestId('anchor-table');
    await within(table).findByText('B-11');
    for (const box of within(table).getAllByRole('checkbox').slice(1)) fireEvent.click(box);
    fireEvent.click(screen.getByTestId('anchor-batch-edit'));
    await screen.findByTestId('anchor-batch-form');
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:scene.batchNothing'))).toBeTruthy();
    fireEvent.change(screen.getByTestId('anchor-batch-height'), { target: { value: '3' } });
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Scene/editBeaconsBatchInfo')).toHaveLength(1));
    expect(calls('/Scene/editBeaconsBatchInfo')[0]!.body).toEqual({ BeaconIds: [11, 12], Height: 3 });
  });

  it('shows a calibration refused with its message, and applies a fit', async () => {
    answers['/Scene/Calibrate'] = { State: 400, Message: 'scene.calibrationTooFew', Params: { minutes: 30, pairs: 2, min: 6 } };
    renderAt('/scene/beacons?scene=3&floor=7', '/scene/beacons', <SceneBeaconsPage />);
    fireEvent.click(await screen.findByTestId('calibration-run'));
    expect((await screen.findByTestId('calibration-refused')).textContent).toContain(
      t('messages:scene.calibrationTooFew', { minutes: 30, pairs: 2, min: 6 }),
    );

    answers['/Scene/Calibrate'] = {
      Item: {
        FloorId: 7,
        Exponent: 2.4,
        Anchors: [
          { BeaconId: 11, Name: 'B-11', Rssi1m: -61, Before: -59, Pairs: 4 },
          { BeaconId: 12, Name: 'AOA-12', Rssi1m: -57.5, Before: -59, Pairs: 4 },
        ],
        Pairs: 8,
        RmsDb: 2.1,
        RmsMetres: 1.3,
        BeforeRmsDb: 4.5,
        BeforeRmsMetres: 3.2,
      },
    };
    fireEvent.click(screen.getByTestId('calibration-run'));
    const result = await screen.findByTestId('calibration-result');
    expect(result.textContent).toContain('2.00 → 2.40');
    expect(result.textContent).toContain('4.50 → 2.10 dB');
    expect(result.textContent).toContain('3.20 → 1.30 m');
    expect(screen.getByTestId('calibration-anchors').textContent).toContain('-59.0 → -61.0 dBm');
    expect(screen.queryByTestId('calibration-refused')).toBeNull();
    fireEvent.click(screen.getByTestId('calibration-apply'));
    await waitFor(() => expect(calls('/Scene/ApplyCalibration')).toHaveLength(1));
    expect(calls('/Scene/ApplyCalibration')[0]!.body).toEqual({
      FloorId: 7,
      Exponent: 2.4,
      Anchors: [
        { BeaconId: 11, Rssi1m: -61 },
        { BeaconId: 12, Rssi1m: -57.5 },
      ],
    });
  });

  it('beacon calibration page: a scene opens its lowest floor and calibrates that floor', async () => {
    answers['/Scene/Calibrate'] = { State: 400, Message: 'scene.calibrationTooFew', Params: { minutes: 30, pairs: 2, min: 6 } };
    renderAt('/scene/calibration?scene=3', '/scene/calibration', <SceneCalibrationPage />);
    expect(await screen.findByText(t('scene:floor.label', { no: 1, name: 'Ground' }))).toBeTruthy();
    fireEvent.click(await screen.findByTestId('calibration-run'));
    expect((await screen.findByTestId('calibration-refused')).textContent).toContain(
      t('messages:scene.calibrationTooFew', { minutes: 30, pairs: 2, min: 6 }),
    );
    expect(calls('/Scene/Calibrate').map((c) => c.body)).toEqual([{ FloorId: 7 }]);
    expect(screen.queryByTestId('elsewhere')).toBeNull();
  });

  it('shows only AOA locators on the AOA page, adding one as an AOA locator with a heading', async () => {
    renderAt('/scene/aoa?scene=3&floor=7', '/scene/aoa', <SceneAoaPage />);
    await screen.findByTestId('anchor-marker-12');
    expect(screen.queryByTestId('anchor-marker-11')).toBeNull();
    expect(screen.queryByTestId('calibration-panel')).toBeNull();
    await waitFor(() => expect(calls('/Scene/BeaconsInfoList')[0]?.body).toMatchObject({ FloorId: 7, Type: 3 }));
    clickPlan(500, 400);
    await screen.findByTestId('anchor-form');
    expect(screen.getByTestId('anchor-heading')).toBeTruthy();
  });
});
