// The monitor map's legend: what each device marker means. A device is drawn in its role's shape
// and colour; offline it turns grey; in SOS it turns red inside a red ring whatever its role, so a
// role drawn red (a red star, say) is told apart from an alarm by the ring. Zoomed out, devices
// gather into discs coloured by how many they hold.
import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import InfoCircleOutlined from '@ant-design/icons/es/icons/InfoCircleOutlined';
import { ROLE_COLORS } from '../../../map/icons';
import { clusterStep } from '../../../map/devicePoints';
import { useDictionary } from '../../devices/queries';
import { useApp } from '../../../stores/app';
import { USER_DATA } from '../../../i18n/texts';

/** Swatch box in CSS px: a marker at its map size (20 px), or with its SOS ring a little smaller. */
const SWATCH = 30;

/** A device marker as the map draws it (map/icons.ts: 40 units = 20 CSS px, white 2 px edge). */
export function MarkerSwatch({ shape, fill, sos = false }: { shape: string; fill: string; sos?: boolean }) {
  const m = 20;
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? 7.5 : 17;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    return `${m + r * Math.cos(a)},${m + r * Math.sin(a)}`;
  }).join(' ');
  const body = { fill, stroke: '#fff', strokeWidth: 4, strokeLinejoin: 'round' as const };
  return (
    <svg width={SWATCH} height={SWATCH} viewBox={sos ? '-18 -18 76 76' : '-10 -10 60 60'} aria-hidden data-shape={shape} data-sos={sos ? '1' : undefined}>
      {/* The SOS ring: a translucent red disc of 16 px radius with a 2 px red edge. */}
      {sos ? <circle cx={m} cy={m} r={33} fill="rgba(245, 34, 45, 0.35)" stroke="#f5222d" strokeWidth={4} /> : null}
      {shape === 'square' ? (
        <rect x={8} y={8} width={24} height={24} {...body} />
      ) : shape === 'rhombus' ? (
        <polygon points="20,4 36,20 20,36 4,20" {...body} />
      ) : shape === 'star' ? (
        <polygon points={star} {...body} />
      ) : (
        <circle cx={m} cy={m} r={13} {...body} />
      )}
    </svg>
  );
}

function ClusterSwatch({ count }: { count: number }) {
  const { color, radius } = clusterStep(count);
  // Discs are 28 to 56 px wide on the map; the legend keeps their order of size, smaller.
  const r = 6 + (radius - 14) / 2;
  return (
    <svg width={SWATCH} height={SWATCH} viewBox="0 0 30 30" aria-hidden>
      <circle cx={15} cy={15} r={r + 1.5} fill="rgba(255,255,255,0.6)" />
      <circle cx={15} cy={15} r={r} fill={color} fillOpacity={0.85} />
    </svg>
  );
}

/** `userData`: the label is a name people gave (a role's), not one of the console's texts. */
function Row({ swatch, label, testId, userData = false }: { swatch: React.ReactNode; label: string; testId?: string; userData?: boolean }) {
  return (
    <div className="wt-map-legend-row" data-testid={testId}>
      {swatch}
      <span title={label} {...(userData ? USER_DATA : {})}>
        {label}
      </span>
    </div>
  );
}

export function MapLegend() {
  const { t } = useTranslation('monitor');
  const mobile = useApp((s) => s.device === 'mobile');
  // Open on a large screen; on a phone the map has little room to spare.
  const [open, setOpen] = useState(!mobile);
  const dict = useDictionary();
  const roles = dict.data?.Roles ?? [];

  if (!open)
    return (
      <Button className="wt-map-legend-open" size="small" icon={<InfoCircleOutlined />} onClick={() => setOpen(true)} data-testid="map-legend-open">
        {t('legend.title')}
      </Button>
    );
  return (
    <div className="wt-map-legend" data-testid="map-legend" role="region" aria-label={t('legend.title')}>
      <div className="wt-map-legend-head">
        <span>{t('legend.title')}</span>
        <Tooltip title={t('legend.hide')}>
          <Button type="text" size="small" icon={<CloseOutlined />} onClick={() => setOpen(false)} aria-label={t('legend.hide')} />
        </Tooltip>
      </div>
      <div className="wt-map-legend-body">
        <div className="wt-map-legend-section">{t('legend.roles')}</div>
        <div className="wt-map-legend-roles">
          {roles.map((r) => (
            <Row key={r.RoleId} swatch={<MarkerSwatch shape={r.Shape} fill={ROLE_COLORS[r.Color] ?? ROLE_COLORS.blue!} />} label={r.Name} testId={`legend-role-${r.RoleId}`} userData />
          ))}
          <Row swatch={<MarkerSwatch shape="circle" fill={ROLE_COLORS.blue!} />} label={t('legend.noRole')} />
        </div>
        <div className="wt-map-legend-section">{t('legend.status')}</div>
        <Row swatch={<MarkerSwatch shape="circle" fill={ROLE_COLORS.grey!} />} label={t('legend.offline')} />
        <Row swatch={<MarkerSwatch shape="circle" fill={ROLE_COLORS.red!} sos />} label={t('legend.sos')} testId="legend-sos" />
        <div className="wt-map-legend-section">{t('legend.clusters')}</div>
        <div className="wt-map-legend-clusters">
          {(
            [
              [1, '1–49'],
              [50, '50–499'],
              [500, '500–4999'],
              [5000, '≥5000'],
            ] as const
          ).map(([n, range]) => (
            <div key={n} title={t('legend.cluster', { range })}>
              <ClusterSwatch count={n} />
              <span>{range}</span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
