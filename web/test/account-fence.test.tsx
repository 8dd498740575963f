// @vitest-environment jsdom
// The account-fence page: the list shows the server's fences (shape, district name, schedule), the
// dialog refuses a fence without a name or a polygon and a polygon crossing itself before sending
// anything, and sends each shape's fields only; without `accountFence.edit` no button changes
// anything. The map is replaced by buttons that hand over drawn shapes, the district picker by a
// text field (jsdom has no WebGL).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import type { AccountFence } from '../src/pages/account/fence/queries';
import type { AccountFenceMapProps } from '../src/pages/account/fence/AccountFenceMap';
import { polyfillDom } from './dom';

vi.mock('../src/pages/account/fence/AccountFenceMap', () => ({
  AccountFenceMap: (p: AccountFenceMapProps) =>
    p.onDrawn ? (
      <div>
        <button
          onClick={() =>
            p.onDrawn!({
              Type: 'polygon',
              Points: [
                { Lat: 22.5, Lon: 113.9 },
                { Lat: 22.5, Lon: 114 },
                { Lat: 22.6, Lon: 114 },
                { Lat: 22.6, Lon: 113.9 },
              ],
            })
          }
        >
          draw-square
        </button>
        <button
          onClick={() =>
            p.onDrawn!({
              Type: 'polygon',
              Points: [
                { Lat: 22.5, Lon: 113.9 },
                { Lat: 22.6, Lon: 114 },
                { Lat: 22.5, Lon: 114 },
                { Lat: 22.6, Lon: 113.9 },
              ],
            })
          }
        >
          draw-bowtie
        </button>
        <button onClick={() => p.onDrawn!({ Type: 'circle', Lat: 22.54, Lon: 113.95, Radius: 800 })}>
          draw-circle
        </button>
      </div>
    ) : (
      <div data-testid="list-map">{p.fences.map((f) => f.Name).join(',')}</div>
    ),
}));
vi.mock('../src/pages/account/fence/district', () => ({
  DistrictPicker: ({ value, onChange }: { value?: string; onChange?: (c?: string) => void }) => (
    <input
      data-testid="district-input"
      value={value ?? ''}
      onChange={(e) => onChange?.(e.target.value || undefined)}
    />
  ),
  loadDistrictShape: async () => null,
  loadDistrictOutline: async () => null,
  districtLabel: async (code: string) => (code === '440305' ? 'Nanshan District' : code),
}));

const { default: AccountFencePage } = await import('../src/pages/account/AccountFencePage');

vi.setConfig({ testTimeout: 30_000 });

const fence = (over: Partial<AccountFence>): AccountFence => ({
  FenceId: 1,
  UserId: 1,
  OwnerLoginName: 'admin',
  Name: 'Office',
  AlarmType: 3,
  Type: 'polygon',
  Lat: null,
  Lon: null,
  Radius: null,
  Points: [
    { Lat: 22.5, Lon: 113.9 },
    { Lat: 22.5, Lon: 114 },
    { Lat: 22.6, Lon: 114 },
  ],
  DistrictCode: null,
  Accounts: [{ UserId: 7, LoginName: 'school', Name: 'School' }],
  IncludeChildren: false,
  Schedule: null,
  DeviceCount: 12,
  CreatedAt: '2026-11-20T08:00:00.000Z',
  ...over,
});

const FENCES = [
  fence({}),
  fence({
    FenceId: 2,
    Name: 'Campus',
    Type: 'district',
    Points: [],
    DistrictCode: '440305',
    AlarmType: 2,
    IncludeChildren: true,
    Schedule: { Days: [1, 2, 3, 4, 5], Windows: [{ Start: '22:00', End: '06:00' }] },
  }),
];

let sent: { path: string; body: Record<string, unknown> }[] = [];

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    const answer = (data: object) => new Response(JSON.stringify({ State: 200, ...data }), { status: 200 });
    if (path === '/AccountFence/List') return answer({ Total: FENCES.length, Items: FENCES });
    if (path === '/user/allChildrenUsers')
      return answer({
        Node: {
          UserId: 1,
          ParentId: null,
          LoginName: 'admin',
          Username: 'admin',
          companyName: '',
          Contact: '',
          AccountKind: 'company',
          HasChildren: true,
        },
        Items: [
          {
            UserId: 7,
            ParentId: 1,
            LoginName: 'school',
            Username: 'School',
            companyName: '',
            Contact: '',
            AccountKind: 'company',
            HasChildren: false,
          },
        ],
        Total: 1,
      });
    if (path === '/Geofence/CreateGeofence' || path === '/Geofence/EditGeofence')
      return answer({ Item: fence({}) });
    return answer({ Items: [], Total: 0 });
  }) as typeof fetch);
});
afterEach(cleanup);

function login(permissions: string[]) {
  useSession.setState({
    userId: 1,
    userInfo: { UserId: 1, LoginName: 'admin', Permissions: permissions } as unknown as UserInfo,
  });
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/account/showfence']}>
        <App>
          <AccountFencePage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;
const calls = (path: string) => sent.filter((s) => s.path === path);

describe('account fence list', () => {
  it('shows the fences the server answers, with shapes, district names and schedules, and asks for their shapes', async () => {
    login(['read', 'accountFence.edit']);
    renderPage();
    const table = await screen.findByTestId('account-fence-table');
    await within(table).findByTestId('fence-row-Office');
    expect(within(table).getByTestId('fence-row-Campus')).toBeTruthy();
    expect(await within(table).findByText('Nanshan District')).toBeTruthy();
    expect(within(table).getByText(/Mon Tue Wed Thu Fri · 22:00–06:00 \(next day\)/)).toBeTruthy();
    expect(within(table).getByText(t('accountFence:schedule.always'))).toBeTruthy();
    expect(within(table).getByText(t('accountFence:alarmTypes.2'))).toBeTruthy();
    expect(within(table).getAllByText('school')).toHaveLength(2);
    expect(calls('/AccountFence/List')[0]!.body).toMatchObject({ PageNo: 1, WithShape: true });
    await waitFor(() => expect(screen.getByTestId('list-map').textContent).toBe('Office,Campus'));
    expect(screen.getByTestId('add-account-fence')).toBeTruthy();
    expect(screen.getByTestId('edit-fence-1')).toBeTruthy();
  });

  it('shows no add, edit or delete button without accountFence.edit', async () => {
    login(['read']);
    renderPage();
    await screen.findByTestId('fence-row-Office');
    expect(screen.queryByTestId('add-account-fence')).toBeNull();
    expect(screen.queryByTestId('edit-fence-1')).toBeNull();
    expect(screen.queryByTestId('delete-fence-1')).toBeNull();
  });
});

describe('account fence dialog', () => {
  async function openAdd() {
    login(['read', 'accountFence.edit']);
    renderPage();
    await screen.findByTestId('fence-row-Office');
    fireEvent.click(screen.getByTestId('add-account-fence'));
    return screen.findByTestId('account-fence-form');
  }

  async function pickAccount(name: string) {
    const select = screen.getByTestId('fence-accounts');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByText(name, { selector: '.ant-select-tree-title *' }));
  }

  it('refuses a fence without a name or polygon, and a polygon crossing itself as soon as it is drawn, sending nothing', async () => {
    await openAdd();
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:accountFence.nameRequired'))).toBeTruthy();
    expect(screen.getByText(t('messages:device.polygonPoints'))).toBeTruthy();
    expect(screen.getByText(t('messages:accountFence.accountsRequired'))).toBeTruthy();

    fireEvent.click(screen.getByText('draw-bowtie'));
    expect(await screen.findByText(t('messages:accountFence.selfIntersecting'))).toBeTruthy();
    fireEvent.change(screen.getByTestId('fence-name'), { target: { value: 'Gate' } });
    fireEvent.click(ok());
    await screen.findByText(t('messages:accountFence.selfIntersecting'));
    expect(calls('/Geofence/CreateGeofence')).toEqual([]);
  });

  it('sends a polygon with its points only', async () => {
    await openAdd();
    fireEvent.change(screen.getByTestId('fence-name'), { target: { value: ' Gate ' } });
    await pickAccount('school (School)');
    fireEvent.click(screen.getByText('draw-square'));
    expect(await screen.findByText(t('accountFence:form.pointsDrawn', { count: 4 }))).toBeTruthy();
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Geofence/CreateGeofence')).toHaveLength(1));
    expect(calls('/Geofence/CreateGeofence')[0]!.body).toEqual({
      Name: 'Gate',
      UserIds: [7],
      IncludeChildren: false,
      AlarmType: 3,
      Type: 'polygon',
      Schedule: null,
      Points: [
        { Lat: 22.5, Lon: 113.9 },
        { Lat: 22.5, Lon: 114 },
        { Lat: 22.6, Lon: 114 },
        { Lat: 22.6, Lon: 113.9 },
      ],
    });
  });

  it('sends a circle with its centre and radius, and a schedule', async () => {
    await openAdd();
    fireEvent.change(screen.getByTestId('fence-name'), { target: { value: 'Yard' } });
    await pickAccount('school (School)');
    fireEvent.click(within(screen.getByTestId('fence-type')).getByText(t('accountFence:types.circle')));
    fireEvent.click(await screen.findByText('draw-circle'));
    fireEvent.click(screen.getByTestId('fence-schedule-on'));
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Geofence/CreateGeofence')).toHaveLength(1));
    expect(calls('/Geofence/CreateGeofence')[0]!.body).toEqual({
      Name: 'Yard',
      UserIds: [7],
      IncludeChildren: false,
      AlarmType: 3,
      Type: 'circle',
      Lat: 22.54,
      Lon: 113.95,
      Radius: 800,
      Schedule: { Days: [1, 2, 3, 4, 5], Windows: [{ Start: '08:00', End: '18:00' }] },
    });
  });

  it('changes a fence to a district: the code is required, then sent with the fence id and without points', async () => {
    login(['read', 'accountFence.edit']);
    renderPage();
    await screen.findByTestId('fence-row-Office');
    fireEvent.click(screen.getByTestId('edit-fence-1'));
    await screen.findByTestId('account-fence-form');
    fireEvent.click(within(screen.getByTestId('fence-type')).getByText(t('accountFence:types.district')));
    await screen.findByTestId('district-input');
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:accountFence.districtRequired'))).toBeTruthy();
    fireEvent.change(screen.getByTestId('district-input'), { target: { value: '440305' } });
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Geofence/EditGeofence')).toHaveLength(1));
    expect(calls('/Geofence/EditGeofence')[0]!.body).toEqual({
      FenceId: 1,
      Name: 'Office',
      UserIds: [7],
      IncludeChildren: false,
      AlarmType: 3,
      Type: 'district',
      DistrictCode: '440305',
      Schedule: null,
    });
  });

  it('says next to a window that it runs past midnight', async () => {
    login(['read', 'accountFence.edit']);
    renderPage();
    await screen.findByTestId('fence-row-Campus');
    fireEvent.click(screen.getByTestId('edit-fence-2'));
    const window0 = await screen.findByTestId('fence-window-0');
    expect(within(window0).getByText(t('accountFence:schedule.overnight'))).toBeTruthy();
  });
});
