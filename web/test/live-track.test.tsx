// @vitest-environment jsdom
// "Live track" (SPEC §6: the track page is the administrators') is offered only where it opens:
// the monitor's device card shows it to an administrator and not to an editor, whose route to it
// would end on the 404 page.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { permittedRoutes } from '../src/access';
import { useSession } from '../src/stores/session';
import { DeviceCard } from '../src/pages/home/monitor/DeviceCard';
import { polyfillDom } from './dom';

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
  setFetch((async (url: RequestInfo | URL) => {
    const body = String(url).includes('deviceTracking')
      ? { State: 200, Device: { DeviceId: 7, Imei: '865000000000007', Nickname: 'Mum', Online: true, Sos: false, Lat: null, Lon: null, LastSeen: null }, Track: [], Health: null, Person: null }
      : { State: 200 };
    return new Response(JSON.stringify(body), { status: 200 });
  }) as typeof fetch);
});
afterEach(cleanup);

function signIn(userType: number) {
  const info = { UserId: 1, LoginName: 'u', UserType: userType, routes: '', PlatformAdmin: userType === 3, timeZoneOffset: 480, Permissions: ['*'] } as unknown as UserInfo;
  useSession.setState({ userInfo: info, permitted: permittedRoutes({ UserType: userType, routes: '', PlatformAdmin: userType === 3 }) });
}

function renderCard() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <App>
          <DeviceCard deviceId={7} onClose={() => {}} />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('live track on the device card', () => {
  it('is offered to an administrator', async () => {
    signIn(3);
    renderCard();
    await screen.findByText('865000000000007');
    expect(screen.queryByTestId('card-live-track')).not.toBeNull();
    expect(screen.getByText(i18n.t('monitor:card.history'))).toBeTruthy();
  });

  it('is not offered to an editor, for whom the track page does not open', async () => {
    signIn(1);
    renderCard();
    await screen.findByText('865000000000007');
    expect(screen.queryByText(i18n.t('monitor:card.liveTrack'))).toBeNull();
    expect(screen.getByText(i18n.t('monitor:card.history'))).toBeTruthy();
  });
});
