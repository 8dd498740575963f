// The monitor's side panel: every device of the account, searchable and filtered by status, in a
// virtual list (50 000 rows cost the rows on screen). Status counts come from the server.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Empty, Input, Segmented, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { STATUS, type DeviceStore } from '../../../map/deviceStore';
import { onRefresh } from '../../../realtime/events';
import { useRealtime } from '../../../realtime/store';
import { useThrottledVersion } from '../../../utils/useThrottledVersion';
import { RelativeTime } from './RelativeTime';
import { USER_DATA } from '../../../i18n/texts';

type Filter = 'all' | 'online' | 'offline' | 'sos';


/** A whole reload of the live devices is listed at once. */
const reloaded = (changed: Set<number> | 'all') => changed === 'all';
export function statusColor(s: number) {
  return s === STATUS.sos ? '#f5222d' : s === STATUS.online ? '#52c41a' : '#bfbfbf';
}

export function DevicePanel({
  store,
  selectedId,
  onSelect,
  ready = true,
}: {
  store: DeviceStore;
  selectedId: number | null;
  onSelect: (id: number) => void;
  /** The device list is in: the counts are asked for then, so as not to delay the list itself. */
  ready?: boolean;
}) {
  const { t } = useTranslation('monitor');
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const box = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(400);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setHeight(Math.max(120, el.clientHeight)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const counts = useQuery({
    queryKey: ['monitor', 'counts'],
    queryFn: () => call('/device/devicesByUserIdPageColor', { PageNo: 1, PageCount: 1 }),
    refetchInterval: 30_000,
    enabled: ready,
  });
  // The SOS filter asks the server, which knows which alarms are still open.
  const sos = useQuery({
    queryKey: ['monitor', 'sos'],
    queryFn: () => call('/Device/monitorDevices', { Status: 'sos' }),
    enabled: filter === 'sos',
  });
  useEffect(() => onRefresh(() => void counts.refetch()), [counts]);
  // An SOS raised or handled in this console changes the SOS count at once, not at the next poll.
  const qc = useQueryClient();
  const sosDevices = useRealtime((s) => s.sosDevices);
  const seenSos = useRef(sosDevices);
  useEffect(() => {
    if (seenSos.current === sosDevices) return;
    seenSos.current = sosDevices;
    void qc.invalidateQueries({ queryKey: ['monitor', 'counts'] });
    void qc.invalidateQueries({ queryKey: ['monitor', 'sos'] });
  }, [sosDevices, qc]);
  const sosIds = useMemo(() => (filter === 'sos' && sos.data ? new Set(sos.data.Items.map((d) => d.DeviceId)) : null), [filter, sos.data]);

  const c = counts.data?.Counts;
  const countOf = (k: Filter) => (c ? (k === 'all' ? c.All : k === 'online' ? c.Online : k === 'offline' ? c.Offline : c.Sos) : undefined);
  return (
    <div className="wt-monitor-panel">
      <Input.Search allowClear placeholder={t('panel.search')} onChange={(e) => setSearch(e.target.value)} onSearch={setSearch} />
      <Segmented
        block
        size="small"
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        options={(['all', 'online', 'offline', 'sos'] as const).map((k) => ({
          value: k,
          label: (
            <span data-testid={`count-${k}`} data-count={countOf(k)}>
              {`${t(`status.${k}`)}${c ? ` ${countOf(k)}` : ''}`}
            </span>
          ),
        }))}
        style={{ margin: '8px 0' }}
      />
      <div className="wt-monitor-list-head">
        <span>{t('panel.device')}</span>
        <span>{t('panel.status')}</span>
        <span>{t('panel.lastSeen')}</span>
      </div>
      <div ref={box} className="wt-monitor-list" data-testid="device-list">
        <LiveRows store={store} search={search} filter={filter} sosIds={sosIds} height={height} selectedId={selectedId} onSelect={onSelect} />
      </div>
    </div>
  );
}

/** The list part of the panel: the only part that follows the live devices (every 2 s at most). */
function LiveRows({
  store,
  search,
  filter,
  sosIds,
  height,
  selectedId,
  onSelect,
}: {
  store: DeviceStore;
  search: string;
  filter: Filter;
  sosIds: Set<number> | null;
  height: number;
  selectedId: number | null;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation('monitor');
  const version = useThrottledVersion(store, 2000, reloaded);
  // Ids in load order; unfiltered, the store's own list (no pass over 50 000 devices).
  const ids = useMemo(() => {
    const q = search.trim().toLowerCase();
    if (!q && filter === 'all') return store.ids;
    const out: number[] = [];
    for (const id of store.ids) {
      const r = store.records.get(id)!;
      if (q && !r.imei.includes(q) && !r.name.toLowerCase().includes(q)) continue;
      if (filter === 'online' && r.status === STATUS.offline) continue;
      if (filter === 'offline' && r.status !== STATUS.offline) continue;
      if (filter === 'sos' && !(r.status === STATUS.sos || sosIds?.has(r.id))) continue;
      out.push(id);
    }
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, version, search, filter, sosIds]);

  // Relative times ("5 min ago") move on by the minute.
  const minute = Math.floor(Date.now() / 60_000);
  return (
    <VirtualRows
      rows={ids}
      height={height}
      empty={t('panel.empty')}
      label={t('panel.list')}
      render={(id) => {
        const r = store.records.get(id);
        return r ? (
          <DeviceRow key={id} id={id} name={r.name || r.imei} imei={r.imei} status={r.status} lastSeen={r.lastSeen} minute={minute} selected={id === selectedId} onSelect={onSelect} />
        ) : null;
      }}
    />
  );
}

/** One row; re-rendered only when what it shows changed. */
const DeviceRow = memo(function DeviceRow({
  id,
  name,
  imei,
  status,
  lastSeen,
  selected,
  onSelect,
}: {
  id: number;
  name: string;
  imei: string;
  status: number;
  lastSeen: number | null;
  /** The current minute: relative times follow it. */
  minute: number;
  selected: boolean;
  onSelect: (id: number) => void;
}) {
  const { t } = useTranslation('monitor');
  return (
    <div className={`wt-device-row${selected ? ' wt-row-selected' : ''}`} onClick={() => onSelect(id)} title={imei} data-device-id={id}>
      <span className="wt-device-name" {...USER_DATA}>
        <Badge color={statusColor(status)} />
        {name}
      </span>
      <span>
        <Tag color={status === STATUS.sos ? 'red' : status === STATUS.online ? 'green' : 'default'} style={{ marginInlineEnd: 0 }}>
          {t(`status.${status === STATUS.sos ? 'sos' : status === STATUS.online ? 'online' : 'offline'}`)}
        </Tag>
      </span>
      <span className="wt-device-seen">
        <RelativeTime value={lastSeen} />
      </span>
    </div>
  );
});

const ROW = 38;

/** Rows on screen only: 50 000 devices cost the twenty that are visible. */
function VirtualRows<T>({ rows, height, render, empty, label }: { rows: T[]; height: number; render: (r: T) => React.ReactNode; empty: string; label: string }) {
  const [top, setTop] = useState(0);
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />;
  const first = Math.max(0, Math.floor(top / ROW) - 5);
  const last = Math.min(rows.length, Math.ceil((top + height) / ROW) + 5);
  return (
    // A region the keyboard can scroll: focusable, and named for screen readers.
    <div className="wt-virtual" style={{ height }} onScroll={(e) => setTop(e.currentTarget.scrollTop)} role="region" aria-label={label} tabIndex={0}>
      <div style={{ height: rows.length * ROW, position: 'relative' }}>
        <div style={{ position: 'absolute', top: first * ROW, left: 0, right: 0 }}>{rows.slice(first, last).map(render)}</div>
      </div>
    </div>
  );
}
