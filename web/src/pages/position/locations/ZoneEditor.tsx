// A location's zone drawn on a floor plan: each click adds a corner (plan metres), corners are
// dragged to move them, the last one undone or all cleared. Also the read-only drawing of a zone
// with the devices inside (the live detail).
import type { ReactNode } from 'react';
import { Button, Empty, Space, Typography } from 'antd';
import { ClearOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PlanMarker, PlanView, usePlanDrag } from '../../../indoor/PlanView';
import { useFloorDetail } from '../../scene/queries';

type Pt = [number, number];
const round = (v: number) => Math.round(v * 100) / 100;

export function ZoneShape({ points }: { points: Pt[] }) {
  if (points.length < 2) return null;
  return (
    <polygon
      points={points.map((p) => p.join(',')).join(' ')}
      fill="rgba(22, 119, 255, 0.18)"
      stroke="#1677ff"
      strokeWidth={2}
      vectorEffect="non-scaling-stroke"
      data-testid="zone-polygon"
    />
  );
}

function Corner({ at, index, onMove }: { at: Pt; index: number; onMove: (i: number, p: Pt) => void }) {
  const drag = usePlanDrag({ at, onDrop: (p) => onMove(index, [round(p[0]), round(p[1])]) });
  return (
    <PlanMarker at={at}>
      <circle r={6} fill="#fff" stroke="#1677ff" strokeWidth={2} {...drag} data-testid={`zone-corner-${index}`} />
    </PlanMarker>
  );
}

/** The floor's plan with a drawing on it; nothing until a floor is chosen. */
export function FloorPlan({ floorId, height, children, onClick, testId }: { floorId: number | undefined; height: number; children?: ReactNode; onClick?: (p: Pt, scaled: boolean) => void; testId?: string }) {
  const { t } = useTranslation();
  const floor = useFloorDetail(floorId);
  const f = floor.data;
  return (
    <div style={{ height, border: '1px solid rgba(5,5,5,0.08)', borderRadius: 6 }}>
      {f ? (
        <PlanView
          planUrl={f.PlanUrl}
          width={f.Width}
          height={f.Height}
          metresPerPixel={f.MetresPerPixel}
          cursor={onClick ? 'crosshair' : undefined}
          onPlanClick={onClick ? (p) => onClick([round(p.metres[0]), round(p.metres[1])], p.scaled) : undefined}
          testId={testId}
        >
          {children}
        </PlanView>
      ) : (
        <Empty style={{ paddingTop: height / 3 }} description={t('locations:zone.pickFloor')} />
      )}
    </div>
  );
}

/** A form input: the zone's corners on the floor given. */
export function ZoneEditor({ floorId, value, onChange }: { floorId: number | undefined; value?: Pt[] | null; onChange?: (v: Pt[]) => void }) {
  const { t } = useTranslation();
  const points = value ?? [];
  const set = (v: Pt[]) => onChange?.(v);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={6}>
      <Space>
        <Typography.Text type="secondary">{t('locations:zone.hint', { count: points.length })}</Typography.Text>
        <Button size="small" icon={<UndoOutlined />} disabled={!points.length} onClick={() => set(points.slice(0, -1))} data-testid="zone-undo">
          {t('locations:zone.undo')}
        </Button>
        <Button size="small" icon={<ClearOutlined />} disabled={!points.length} onClick={() => set([])} data-testid="zone-clear">
          {t('locations:zone.clear')}
        </Button>
      </Space>
      <FloorPlan floorId={floorId} height={340} onClick={(p) => set([...points, p])} testId="zone-plan">
        <ZoneShape points={points} />
        {points.map((p, i) => (
          <Corner key={i} at={p} index={i} onMove={(j, q) => set(points.map((x, k) => (k === j ? q : x)))} />
        ))}
      </FloorPlan>
    </Space>
  );
}
