// The live inner map (/position/innerMap, SPEC §2 Scene and indoor positioning): a scene and one of
// its floors, the floor's plan with its anchors, and the tags indoors on it moving live. Tags are
// drawn by one canvas layer from the IndoorStore's typed arrays (fed by every realtime batch and
// seeded from /Scene/sceneInfoByMonitorForServer when a scene opens), never one DOM node per tag.
// A tag is found by name or IMEI, clicked for its card, and its indoor track played back on the plan
// (the floor follows the track).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AutoComplete, Checkbox, Empty, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { PlanView, type PlanViewHandle } from '../../indoor/PlanView';
import { ANCHOR_COLOURS, AnchorMarkers } from '../../indoor/AnchorMarkers';
import type { PlanTransform } from '../../indoor/planTransform';
import { indoorLive, type IndoorStore } from '../../indoor/live/indoorStore';
import { TagCanvas } from '../../indoor/live/TagCanvas';
import { hitTag } from '../../indoor/live/tagLayer';
import { onRefresh } from '../../realtime/events';
import { useRealtime } from '../../realtime/store';
import { USER_DATA, userDataOptions } from '../../i18n/texts';
import { usePlayback } from '../devices/history/usePlayback';
import { HistoryPanel, todayRange, useIndoorHistory, type IndoorTrack, type Range } from './inner/HistoryPanel';
import { FloorSwitch, LiveTagCard, StatusLegend } from './inner/LivePanels';
import { TrackMarks } from './inner/TrackMarks';
import { useStoreCount } from './inner/useStoreCount';
import '../home/monitor/monitor.css';
import '../devices/history/history.css';
import './inner/inner.css';

export interface InnerMapPageProps {
  /** The store drawn (the console's live one by default; tests pass their own). */
  store?: IndoorStore;
}


/** How often the page looks for tags without a name (and then asks the snapshot again). */
const UNNAMED_CHECK_MS = 3000;
export default function InnerMapPage({ store = indoorLive }: InnerMapPageProps) {
  const { t } = useTranslation('innerMap');
  const [params, setParams] = useSearchParams();
  const plan = useRef<PlanViewHandle>(null);
  const transform = useRef<PlanTransform | null>(null);

  const scenes = useQuery({
    queryKey: ['innerMap', 'scenes'],
    queryFn: () => call('/Scene/SceneInfoListByMonitor', {}),
    staleTime: 60_000,
  });
  const sceneItems = useMemo(() => scenes.data?.Items ?? [], [scenes.data]);
  const paramScene = Number(params.get('scene')) || undefined;
  const sceneId = sceneItems.some((s) => s.SceneId === paramScene) ? paramScene : sceneItems[0]?.SceneId;

  const detail = useQuery({
    queryKey: ['innerMap', 'scene', sceneId],
    queryFn: () => call('/Scene/sceneInfoByMonitor', { SceneId: sceneId! }),
    enabled: sceneId !== undefined,
    staleTime: 60_000,
  });
  const floors = useMemo(() => [...(detail.data?.Item.Floors ?? [])].sort((a, b) => a.FloorNo - b.FloorNo), [detail.data]);
  const [floorChoice, setFloorChoice] = useState<number | undefined>(undefined);
  const floorId = floors.some((f) => f.FloorId === floorChoice) ? floorChoice : floors[0]?.FloorId;
  const floor = floors.find((f) => f.FloorId === floorId);
  const anchors = useMemo(() => (detail.data?.Item.Anchors ?? []).filter((a) => a.FloorId === floorId), [detail.data, floorId]);
  const floorName = useCallback((id: number) => floors.find((f) => f.FloorId === id)?.Name, [floors]);

  // The snapshot of the scene seeds the store; again after a reconnection or a "refresh data".
  const [seeded, setSeeded] = useState<number | null>(null);
  useEffect(() => {
    if (sceneId === undefined) return;
    let alive = true;
    const seed = () =>
      call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId })
        .then((r) => {
          if (!alive) return;
          store.seed(sceneId, r.Items);
          setSeeded(sceneId);
        })
        .catch(() => undefined);
    void seed();
    const off = onRefresh(() => void seed());
    // Tags that came indoors after the snapshot arrive without a name: the snapshot names them.
    const naming = setInterval(() => {
      if (store.hasUnnamed(sceneId)) void seed();
    }, UNNAMED_CHECK_MS);
    return () => {
      alive = false;
      off();
      clearInterval(naming);
    };
  }, [sceneId, store]);

  // SOS raised while the console is open (realtime alarms) blink too; handled ones stop.
  const sosDevices = useRealtime((s) => s.sosDevices);
  const sosShown = useRef(new Set<number>());
  useEffect(() => {
    // All of them again after a snapshot (tags unknown before it are known now); a no-op when set.
    for (const id of sosDevices) store.setSos(id, true);
    for (const id of sosShown.current) if (!sosDevices.has(id)) store.setSos(id, false);
    sosShown.current = new Set(sosDevices);
  }, [sosDevices, store, seeded]);

  const [showAccuracy, setShowAccuracy] = useState(false);
  const [showLabels, setShowLabels] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);

  // Centring waits for the floor's plan to be shown (a new plan is fitted first).
  const [centreOn, setCentreOn] = useState<{ at: [number, number]; floorId: number } | null>(null);
  useEffect(() => {
    if (!centreOn || centreOn.floorId !== floorId) return;
    plan.current?.centerOn(centreOn.at);
    setCentreOn(null);
  }, [centreOn, floorId]);

  const selectTag = (id: number) => {
    const found = store.tag(id);
    setSelected(id);
    if (!found?.indoor || found.sceneId !== sceneId) return;
    setFloorChoice(found.floorId);
    setCentreOn({ at: [found.x, found.y], floorId: found.floorId });
  };

  const [search, setSearch] = useState('');
  // Looked up as the text changes (names and IMEIs do not move).
  const results = useMemo(() => (sceneId === undefined ? [] : store.search(sceneId, search)), [store, sceneId, search]);

  // Indoor history.
  const [historyDevice, setHistoryDevice] = useState<number | undefined>(undefined);
  const [range, setRange] = useState<Range>(todayRange);
  const [track, setTrack] = useState<IndoorTrack | null>(null);
  const play = usePlayback(track?.length ?? 0);
  const history = useIndoorHistory(sceneId, setTrack);
  const known = useStoreCount(store);
  const deviceOptions = useMemo(() => {
    if (sceneId === undefined) return [];
    const out: { value: number; label: string }[] = [];
    for (let i = 0; i < store.count; i++) {
      if (store.scene[i] !== sceneId || !store.imeis[i]) continue;
      out.push({ value: store.ids[i]!, label: `${store.names[i] || store.imeis[i]} (${store.imeis[i]})` });
    }
    return out.sort((a, b) => a.label.localeCompare(b.label));
    // Names come with the snapshot and with tags first seen: not rebuilt for every move.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, sceneId, seeded, known]);
  // The floor follows the point the playback has reached.
  const trackFloor = track && play.state !== 'idle' ? track[play.index]?.FloorId : track?.[0]?.FloorId;
  useEffect(() => {
    if (trackFloor !== undefined) setFloorChoice(trackFloor);
  }, [trackFloor]);

  // A new scene starts clean.
  useEffect(() => {
    setSelected(null);
    setTrack(null);
    setHistoryDevice(undefined);
  }, [sceneId]);

  if (scenes.isSuccess && !sceneItems.length)
    return (
      <div data-testid="inner-map" data-state="empty">
        <Empty description={t('noScenes')} style={{ marginTop: 80 }} />
      </div>
    );

  return (
    <div className="wt-monitor wt-inner-map" data-testid="inner-map" data-scene={sceneId ?? ''} data-floor={floorId ?? ''} data-seeded={seeded === sceneId ? '1' : '0'}>
      <div className="wt-monitor-panel wt-inner-panel">
        <Space orientation="vertical" style={{ width: '100%' }} size={10}>
          <Select
            value={sceneId}
            onChange={(v) => {
              setFloorChoice(undefined);
              setParams((p) => {
                p.set('scene', String(v));
                return p;
              }, { replace: true });
            }}
            options={sceneItems.map((s) => ({ value: s.SceneId, label: s.Name }))}
            placeholder={t('chooseScene')}
            loading={scenes.isLoading}
            style={{ width: '100%' }}
            {...userDataOptions}
            data-testid="scene-select"
          />
          <AutoComplete
            value={search}
            onChange={setSearch}
            onSelect={(v: string) => {
              selectTag(Number(v));
              setSearch('');
            }}
            options={results.map((r) => ({
              value: String(r.id),
              label: (
                <span {...USER_DATA} data-testid={`tag-option-${r.id}`}>
                  {r.name || r.imei} <Typography.Text type="secondary">{r.imei}</Typography.Text>
                </span>
              ),
            }))}
            placeholder={t('search')}
            notFoundContent={search.trim() ? t('notFound') : null}
            style={{ width: '100%' }}
            allowClear
            data-testid="tag-search"
          />
          <FloorSwitch store={store} sceneId={sceneId} floors={floors} floorId={floorId} onFloor={setFloorChoice} />
          <Space wrap size={12}>
            <Checkbox checked={showAccuracy} onChange={(e) => setShowAccuracy(e.target.checked)} data-testid="toggle-accuracy">
              {t('showAccuracy')}
            </Checkbox>
            <Checkbox checked={showLabels} onChange={(e) => setShowLabels(e.target.checked)} data-testid="toggle-labels">
              {t('showLabels')}
            </Checkbox>
          </Space>
          <StatusLegend store={store} sceneId={sceneId} floorId={floorId} />
          <div className="wt-inner-legend">
            <span><i style={{ background: ANCHOR_COLOURS[1] }} />{t('anchor.ble')}</span>
            <span><i style={{ background: ANCHOR_COLOURS[2], borderRadius: 0 }} />{t('anchor.uwb')}</span>
            <span><i style={{ background: ANCHOR_COLOURS[3] }} />{t('anchor.aoa')}</span>
            <span><i style={{ background: '#8c8c8c' }} />{t('anchor.invalid')}</span>
          </div>
        </Space>
        {sceneId !== undefined && (
          <HistoryPanel
            deviceId={historyDevice}
            onDevice={setHistoryDevice}
            devices={deviceOptions}
            range={range}
            onRange={setRange}
            track={track}
            onTrack={setTrack}
            play={play}
            floorName={floorName}
            onQuery={() => void history.load(historyDevice, range)}
            loading={history.loading}
          />
        )}
      </div>
      <div className="wt-monitor-map">
        {floor ? (
          <PlanView
            ref={plan}
            planUrl={floor.PlanUrl}
            width={floor.Width}
            height={floor.Height}
            metresPerPixel={floor.MetresPerPixel}
            testId="inner-plan"
            onViewChange={(tr) => (transform.current = tr)}
            onPlanClick={(p) => {
              if (sceneId === undefined || floorId === undefined || !transform.current) return;
              setSelected(hitTag(store, sceneId, floorId, transform.current, performance.now(), p.screen[0], p.screen[1]));
            }}
            layers={(ctx) =>
              sceneId !== undefined && floorId !== undefined ? (
                <TagCanvas
                  store={store}
                  sceneId={sceneId}
                  floorId={floorId}
                  transform={ctx.transform}
                  width={ctx.size.width}
                  height={ctx.size.height}
                  accuracy={showAccuracy}
                  labels={showLabels}
                  selectedId={selected}
                />
              ) : null
            }
          >
            <AnchorMarkers anchors={anchors} />
            {track && <TrackMarks points={track} floorId={floor.FloorId} current={play.state === 'idle' ? null : play.index} />}
          </PlanView>
        ) : (
          <Empty description={detail.isLoading || scenes.isLoading ? t('loading') : t('noFloors')} style={{ marginTop: 120 }} />
        )}
        {selected !== null && (
          <LiveTagCard
            store={store}
            id={selected}
            floorName={floorName}
            onClose={() => setSelected(null)}
            onHistory={(id) => {
              // Today's track at once; the panel's range and device can then be changed.
              const today = todayRange();
              setHistoryDevice(id);
              setRange(today);
              void history.load(id, today);
            }}
          />
        )}
      </div>
    </div>
  );
}
