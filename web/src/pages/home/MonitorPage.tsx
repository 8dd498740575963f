// Monitor (/): every device of the account on the map, live, with the side list and the device card.
import { useCallback, useEffect, useRef, useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MapRef } from 'react-map-gl/maplibre';
import gcoord from 'gcoord';
import { BIG_DATA_FIELDS } from '@wt/contract';
import MenuFoldOutlined from '@ant-design/icons/es/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/es/icons/MenuUnfoldOutlined';
import { call } from '../../api/client';
import { MapView } from '../../map/MapView';
import { MapDevices } from '../../map/MapDevices';
import { liveDevices } from '../../map/deviceStore';
import { useMapSettings, usesGcj02 } from '../../map/settings';
import { onRefresh } from '../../realtime/events';
import { useSession } from '../../stores/session';
import { DevicePanel } from './monitor/DevicePanel';
import { DeviceCard } from './monitor/DeviceCard';
import { MapToolbar } from './monitor/MapToolbar';
import { AlarmSpot, DeviceAlarms, useFocusRequest, type MonitorFocus } from './monitor/AlarmFocus';
import { MapLegend } from './monitor/MapLegend';
import { AccountFenceLayer } from './monitor/AccountFenceLayer';
import './monitor/monitor.css';
import { boundsOf } from '../../map/bounds';

export default function MonitorPage() {
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();
  const info = useSession((s) => s.userInfo);
  const provider = useMapSettings((s) => s.provider);
  const [selected, setSelected] = useState<number | null>(null);
  const [panelOpen, setPanelOpen] = useState(true);
  const [loaded, setLoaded] = useState(false);
  // The base map's detailed shapes wait until the devices are drawn.
  const [drawn, setDrawn] = useState(false);
  const map = useRef<MapRef | null>(null);
  const [mapLoaded, setMapLoaded] = useState(false);
  const fitted = useRef(false);
  // A device opened from an alarm (pop-up or record): its alarms are offered for confirmation.
  const [focus, setFocus] = useState<MonitorFocus | null>(null);

  // First view: all devices in sight, once both the list and the map are there.
  const fit = useCallback((located: [number, number][]) => {
    const m = map.current;
    if (!m || fitted.current || !located.length) return;
    const box = boundsOf(located);
    fitted.current = true;
    if (box) m.fitBounds(box, { padding: 60, maxZoom: 13, duration: 0 });
  }, []);

  const load = useCallback(async () => {
    try {
      // Marks for the map benchmark (e2e/bench/map.ts): request, data in hand, drawn.
      performance.mark('wt-devices-requested');
      const r = await call('/device/devicesByUserIdPageColorBigData', {});
      performance.mark('wt-devices-received');
      // The view is fitted before the map draws the devices, so they are clustered once, for it.
      const lat = BIG_DATA_FIELDS.indexOf('Lat');
      const lon = BIG_DATA_FIELDS.indexOf('Lon');
      fit(r.Rows.flatMap((row) => (typeof row[lat] === 'number' && typeof row[lon] === 'number' ? [[row[lon], row[lat]] as [number, number]] : [])));
      liveDevices.load(r.Rows);
      setLoaded(true);
    } catch {
      void message.error(t('loadFailed'));
    }
  }, [message, t, fit]);

  useEffect(() => {
    void load();
    return onRefresh(() => void load());
  }, [load]);

  const select = useCallback(
    (id: number, at?: { lat: number; lon: number }) => {
      setSelected(id);
      const r = at ?? liveDevices.records.get(id);
      if (r?.lat == null || r.lon == null) return;
      const c = usesGcj02(provider) ? (gcoord.transform([r.lon, r.lat], gcoord.WGS84, gcoord.GCJ02) as [number, number]) : ([r.lon, r.lat] as [number, number]);
      map.current?.flyTo({ center: c, zoom: Math.max(map.current.getZoom(), 15), duration: 800 });
    },
    [provider],
  );

  const applyFocus = useCallback(
    (f: MonitorFocus) => {
      // Coming back to the kept-alive monitor, the map may not have taken its size yet: the flight
      // would be planned for the hidden size.
      map.current?.resize();
      setFocus(f);
      select(f.deviceId, f.spot);
    },
    [select],
  );
  useFocusRequest(loaded && mapLoaded, applyFocus);
  const focused = focus !== null && focus.deviceId === selected;

  return (
    <div className="wt-monitor" data-testid="monitor" data-loaded={loaded ? '1' : '0'}>
      {panelOpen && <DevicePanel store={liveDevices} selectedId={selected} onSelect={select} ready={loaded} />}
      <div className="wt-monitor-map">
        <MapView
          id="monitor"
          onLoad={(m) => {
            map.current = m;
            setMapLoaded(true);
            fit([...liveDevices.records.values()].flatMap((r) => (r.lat === null || r.lon === null ? [] : [[r.lon, r.lat] as [number, number]])));
          }}
          visibleKey={panelOpen}
          holdDetail={!drawn}
        >
          <MapDevices
            store={liveDevices}
            selectedId={selected}
            onSelect={select}
            showLabels={info?.isShowMapLabel === 1}
            sosAnimation={info?.switchAnimation === 1}
            onRendered={() => setDrawn(true)}
          />
          {focused && focus.spot ? <AlarmSpot spot={focus.spot} /> : null}
          {info?.IsShowMonitorFence === 1 ? <AccountFenceLayer /> : null}
        </MapView>
        <Tooltip title={panelOpen ? t('panel.hide') : t('panel.show')}>
          <Button
            className="wt-monitor-toggle"
            size="small"
            icon={panelOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
            onClick={() => setPanelOpen(!panelOpen)}
            aria-label={panelOpen ? t('panel.hide') : t('panel.show')}
          />
        </Tooltip>
        <MapToolbar />
        <MapLegend />
        {selected !== null && <DeviceCard key={selected} deviceId={selected} onClose={() => setSelected(null)} />}
        {selected !== null && <DeviceAlarms key={`alarms-${selected}-${focused ? 'focus' : ''}`} deviceId={selected} focused={focused} onClose={() => setFocus(null)} />}
      </div>
    </div>
  );
}
