// Small display pieces of the device pages: relative times (SPEC §9) and role swatches.
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { relativeTime } from '@wt/contract';
import { shownTime, useViewerOffset } from '../../session/time';

/** Draw colours of device roles, the same hues the map uses. */
export const ROLE_HEX: Record<string, string> = {
  blue: '#409EFF',
  orange: '#E6A23C',
  red: '#F56C6C',
  green: '#67C23A',
  yellow: '#F2C511',
};

export function RelativeTime({ value }: { value: string | null | undefined }) {
  const { t } = useTranslation();
  const offset = useViewerOffset();
  if (!value) return <span style={{ color: 'rgba(0,0,0,.35)' }}>—</span>;
  const r = relativeTime(value, Date.now(), offset);
  const text = r.key === 'date' ? r.text : r.key === 'minutesAgo' || r.key === 'hoursAgo' ? t(`common:time.${r.key}`, { count: r.count }) : t(`common:time.${r.key}`);
  return (
    <Tooltip title={shownTime(value)}>
      <span>{text}</span>
    </Tooltip>
  );
}

/** The role's colour in its shape (circle, star, square, rhombus). */
export function RoleSwatch({ color, shape, size = 14, title }: { color: string; shape: string; size?: number; title?: string }) {
  const fill = ROLE_HEX[color] ?? color;
  const s = size;
  const h = s / 2;
  const star = Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? h * 0.45 : h;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    return `${h + r * Math.cos(a)},${h + r * Math.sin(a)}`;
  }).join(' ');
  return (
    <svg width={s} height={s} viewBox={`0 0 ${s} ${s}`} role="img" aria-label={title ?? color} data-role-color={color} data-role-shape={shape} style={{ verticalAlign: 'middle', flex: 'none' }}>
      {title ? <title>{title}</title> : null}
      {shape === 'square' ? (
        <rect x={1} y={1} width={s - 2} height={s - 2} fill={fill} />
      ) : shape === 'rhombus' ? (
        <polygon points={`${h},0 ${s},${h} ${h},${s} 0,${h}`} fill={fill} />
      ) : shape === 'star' ? (
        <polygon points={star} fill={fill} />
      ) : (
        <circle cx={h} cy={h} r={h - 1} fill={fill} />
      )}
    </svg>
  );
}
