// @vitest-environment jsdom
// The project map page against a mocked server: one marker per scene (disabled ones greyed), the
// side list searched by name, a marker or a row opening the scene's card with the server's counts,
// and the card's ways to the scene map and the floors, offered only where the user may go. The map
// itself is replaced (jsdom has no WebGL): its markers render as plain elements.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { ReactNode } from 'react';
import type { UserInfo, scene } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { permittedRoutes } from '../src/access';
import { useSession } from '../src/stores/session';
import { polyfillDom } from './dom';

vi.mock('../src/map/MapView', () => ({ MapView: ({ children }: { children?: ReactNode }) => <div data-testid="map-view">{children}</div> }));
vi.mock('react-map-gl/maplibre', () => ({
  useMap: () => ({ current: undefined }),
  Marker: ({ children, onClick, longitude, latitude }: { children?: ReactNode; onClick?: (e: { originalEvent: { stopPropagation: () => void } }) => void; longitude: number; latitude: number }) => (
    <div data-at={`${longitude},${latitude}`} onClick={() => onClick?.({ originalEvent: { stopPropagation: () => {} } })}>
      {children}
    </div>
  ),
}));

const { default: ProjectMapPage } = await import('../src/pages/scene/ProjectMapPage');

const base = { UserId: 1, OwnerLoginName: 'admin', MapUrl: null, IconUrl: null, CreatedAt: '2026-11-20T08:00:00.000Z' };
const ITEMS: scene.ProjectMapScene[] = [
  { ...base, SceneId: 3, Name: 'Care home', Lat: 22.54, Lon: 114.05, Address: '1 Garden Road', Enabled: true, BeaconType: 1, Method: 1, FloorCount: 2, AnchorCount: 37, TagCount: 5 },
  { ...base, SceneId: 4, Name: 'Depot', Lat: 23.13, Lon: 113.26, Address: '9 Harbour Street', Enabled: false, BeaconType: 2, Method: 2, FloorCount: 1, AnchorCount: 0, TagCount: 0 },
];

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  setFetch((async (url: RequestInfo | URL) => {
    const path = String(url).replace(/^\/api/, '');
    const body = path === '/Scene/ProjectMap' ? { Items: ITEMS, Minutes: 10 } : { Items: [], Total: 0 };
    return new Response(JSON.stringify({ State: 200, ...body }), { status: 200 });
  }) as typeof fetch);
});
afterEach(cleanup);

function session(userType: number, routes = '') {
  const info = { UserId: 1, LoginName: 'admin', UserType: userType, routes, Permissions: ['read', 'scene.edit'] } as unknown as UserInfo;
  useSession.setState({ userId: 1, userInfo: info, permitted: permittedRoutes(info) });
}

function Where() {
  const l = useLocation();
  return <div data-testid="elsewhere">{`${l.pathname}${l.search}`}</div>;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/scene/projectMap']}>
        <App>
          <Routes>
            <Route path="/scene/projectMap" element={<ProjectMapPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const card = () => screen.getByTestId('project-card');

describe('project map page', () => {
  it('puts a marker per scene at its place, the disabled one greyed', async () => {
    session(3);
    renderPage();
    const care = await screen.findByTestId('project-marker-3');
    const depot = screen.getByTestId('project-marker-4');
    expect([care.textContent, depot.textContent]).toEqual(['Care home', 'Depot']);
    expect(care.parentElement!.getAttribute('data-at')).toBe('114.05,22.54');
    expect([care.className.includes('disabled'), depot.className.includes('disabled')]).toEqual([false, true]);
    expect(screen.getByText(t('scene:projectMap.listTitle', { count: 2 }))).toBeTruthy();
  });

  it("opens a scene's card with the server's counts from its marker, and leads to its scene map", async () => {
    session(3);
    renderPage();
    fireEvent.click(await screen.findByTestId('project-marker-3'));
    const c = card();
    expect(within(c).getByTestId('project-card-name').textContent).toBe('Care home');
    expect(within(c).getByTestId('project-card-address').textContent).toBe('1 Garden Road');
    expect(['floors', 'anchors', 'tags'].map((k) => within(c).getByTestId(`project-card-${k}`).textContent)).toEqual(['2', '37', '5']);
    expect(within(c).getByTestId('project-card-enabled').textContent).toBe(t('scene:list.enabled'));
    expect(c.textContent).toContain(t('scene:projectMap.tags', { minutes: 10 }));
    expect(c.textContent).toContain(t('scene:beaconTypes.1'));
    fireEvent.click(within(c).getByTestId('project-open-map'));
    await waitFor(() => expect(screen.getByTestId('elsewhere').textContent).toBe('/scene/scenemap?id=3'));
  });

  it('searches the side list by name; a row opens its card and the floors button leads to its floors', async () => {
    session(3);
    renderPage();
    await screen.findByTestId('project-row-3');
    fireEvent.change(screen.getByPlaceholderText(t('scene:projectMap.search')), { target: { value: 'dep' } });
    await waitFor(() => expect(screen.queryByTestId('project-row-3')).toBeNull());
    fireEvent.click(screen.getByTestId('project-row-4'));
    expect(within(card()).getByTestId('project-card-name').textContent).toBe('Depot');
    expect(within(card()).getByTestId('project-card-enabled').textContent).toBe(t('scene:list.disabled'));
    fireEvent.change(screen.getByPlaceholderText(t('scene:projectMap.search')), { target: { value: 'nothing like it' } });
    await screen.findByText(t('scene:projectMap.empty'));
    fireEvent.click(within(card()).getByTestId('project-open-floors'));
    await waitFor(() => expect(screen.getByTestId('elsewhere').textContent).toBe('/scene/floors?scene=4'));
  });

  it('offers no way to a page the user may not open', async () => {
    // A route list holding the project map only.
    session(3, '/scene/projectMap');
    renderPage();
    fireEvent.click(await screen.findByTestId('project-marker-3'));
    expect(within(card()).queryByTestId('project-open-map')).toBeNull();
    expect(within(card()).queryByTestId('project-open-floors')).toBeNull();
  });
});
