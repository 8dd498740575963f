// The parts of the inner map that show live figures (tags per floor, the status legend, the card
// of the selected tag). Each listens to the IndoorStore itself at a throttled pace, so a realtime
// batch re-renders these few elements only, never the page with its plan, selects and pickers.
import { useMemo, type ReactNode } from 'react';
import { Badge, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { scene } from '@wt/contract';
import { ONLINE, SOS, type IndoorStore } from '../../../indoor/live/indoorStore';
import { COLORS } from '../../../indoor/live/tagLayer';
import { USER_DATA } from '../../../i18n/texts';
import { TagCard } from './TagCard';
import { useThrottledVersion } from '../../../utils/useThrottledVersion';

export function FloorSwitch({ store, sceneId, floors, floorId, onFloor }: { store: IndoorStore; sceneId: number | undefined; floors: scene.FloorSummary[]; floorId: number | undefined; onFloor: (id: number) => void }) {
  const { t } = useTranslation('innerMap');
  const version = useThrottledVersion<void>(store, 500);
  const counts = useMemo(
    () => (sceneId === undefined ? new Map<number, number>() : store.countByFloor(sceneId)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [store, sceneId, version],
  );
  return (
    <div data-testid="floor-switch">
      <Typography.Text type="secondary">{t('floor')}</Typography.Text>
      {floors.length ? (
        <Radio.Group
          value={floorId}
          onChange={(e) => onFloor(e.target.value as number)}
          optionType="button"
          buttonStyle="solid"
          size="small"
          className="wt-inner-floors"
          options={floors.map((f) => ({
            value: f.FloorId,
            label: (
              <span data-testid={`floor-${f.FloorId}`} data-count={counts.get(f.FloorId) ?? 0}>
                <span {...USER_DATA}>{f.Name}</span>{' '}
                <Badge
                  count={counts.get(f.FloorId) ?? 0}
                  showZero
                  overflowCount={9999}
                  color={f.FloorId === floorId ? '#fff' : '#1677ff'}
                  style={f.FloorId === floorId ? { color: '#1677ff' } : undefined}
                />
              </span>
            ),
          }))}
        />
      ) : (
        <div>{t('noFloors')}</div>
      )}
    </div>
  );
}

export function StatusLegend({ store, sceneId, floorId }: { store: IndoorStore; sceneId: number | undefined; floorId: number | undefined }) {
  const { t } = useTranslation('innerMap');
  const version = useThrottledVersion<void>(store, 500);
  const status = useMemo(() => {
    const out = { online: 0, offline: 0, sos: 0 };
    if (sceneId === undefined || floorId === undefined) return out;
    for (let i = 0; i < store.count; i++) {
      if (!store.isIndoor(i, sceneId, floorId)) continue;
      const f = store.flags[i]!;
      if (f & SOS) out.sos++;
      else if (f & ONLINE) out.online++;
      else out.offline++;
    }
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store, sceneId, floorId, version]);
  const dot = (color: string): ReactNode => <i style={{ background: color }} />;
  return (
    <div className="wt-inner-legend" data-testid="inner-legend">
      <span>
        {dot(COLORS.online)}
        {t('legend.online')} {status.online}
      </span>
      <span>
        {dot(COLORS.offline)}
        {t('legend.offline')} {status.offline}
      </span>
      <span>
        {dot(COLORS.sos)}
        {t('legend.sos')} <b data-testid="sos-count">{status.sos}</b>
      </span>
    </div>
  );
}

export function LiveTagCard({ store, id, floorName, onClose, onHistory }: { store: IndoorStore; id: number; floorName: (floorId: number) => string | undefined; onClose: () => void; onHistory: (id: number) => void }) {
  const version = useThrottledVersion<void>(store, 500);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const tag = useMemo(() => store.tag(id), [store, id, version]);
  if (!tag) return null;
  return <TagCard tag={tag} floorName={floorName(tag.floorId)} onClose={onClose} onHistory={() => onHistory(tag.id)} />;
}
