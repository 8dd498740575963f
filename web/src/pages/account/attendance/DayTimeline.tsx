// One device's day at one fence drawn on a 24-hour axis of the owner's time zone: the schedule's
// windows as bands behind, inside and outside intervals in two colours, unknown greyed, ticks every
// two hours. Plain SVG that stretches to its box (no chart library for a few rectangles).
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DAY_MINUTES, axisTicks, type Segment } from './timeline';

export const TIMELINE_COLOURS = {
  inside: '#52c41a',
  outside: '#fa8c16',
  unknown: '#d9d9d9',
  window: 'rgba(22, 119, 255, 0.12)',
  windowEdge: '#1677ff',
} as const;

// Layout in viewBox units: the width is 1000 wide whatever the box, the height fixed.
const W = 1000;
const PAD_X = 24;
const AXIS_W = W - PAD_X * 2;
const WINDOW_Y = 6;
const BAR_Y = 26;
const BAR_H = 28;
const TICK_Y = BAR_Y + BAR_H + 6;
const H = TICK_Y + 22;

const x = (minute: number) => PAD_X + (minute / DAY_MINUTES) * AXIS_W;

export function DayTimeline({ intervals, windows }: { intervals: Segment[]; windows: Segment[] }) {
  const { t } = useTranslation('attendance');
  const label = (s: Segment) => `${t(`legend.${s.kind}`)} ${s.start}–${s.end}${s.after ? ` (${t('detail.continues')})` : ''}`;
  return (
    <div data-testid="attendance-timeline">
      <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={t('detail.summary')} style={{ display: 'block', overflow: 'visible' }}>
        {windows.map((w, i) => (
          <g key={`w${i}`} data-kind="window">
            <title>{label(w)}</title>
            <rect x={x(w.from)} y={WINDOW_Y} width={Math.max(1, x(w.to) - x(w.from))} height={BAR_Y + BAR_H - WINDOW_Y + 2} fill={TIMELINE_COLOURS.window} />
            <rect x={x(w.from)} y={WINDOW_Y} width={Math.max(1, x(w.to) - x(w.from))} height={4} fill={TIMELINE_COLOURS.windowEdge} />
            {w.after ? (
              <text x={x(w.to) - 4} y={WINDOW_Y + 15} fontSize={11} textAnchor="end" fill={TIMELINE_COLOURS.windowEdge}>
                → {w.end}
              </text>
            ) : null}
          </g>
        ))}
        <rect x={PAD_X} y={BAR_Y} width={AXIS_W} height={BAR_H} fill="none" stroke="#f0f0f0" />
        {intervals.map((s, i) => (
          <rect
            key={`i${i}`}
            data-kind={s.kind}
            x={x(s.from)}
            y={BAR_Y}
            width={Math.max(0.5, x(s.to) - x(s.from))}
            height={BAR_H}
            fill={TIMELINE_COLOURS[s.kind as 'inside' | 'outside' | 'unknown']}
            fillOpacity={s.kind === 'unknown' ? 0.7 : 0.9}
          >
            <title>{label(s)}</title>
          </rect>
        ))}
        {axisTicks(2).map((tick) => (
          <g key={tick.minute}>
            <line x1={x(tick.minute)} x2={x(tick.minute)} y1={BAR_Y + BAR_H} y2={TICK_Y} stroke="#bfbfbf" />
            <text x={x(tick.minute)} y={TICK_Y + 13} fontSize={11} textAnchor="middle" fill="#8c8c8c">
              {tick.label}
            </text>
          </g>
        ))}
      </svg>
      <Space size={16} wrap style={{ marginTop: 8 }}>
        {(['inside', 'outside', 'unknown', 'window'] as const).map((k) => (
          <Space key={k} size={6}>
            <span
              style={{
                display: 'inline-block',
                width: 14,
                height: 10,
                borderRadius: 2,
                background: TIMELINE_COLOURS[k],
                border: k === 'window' ? `1px solid ${TIMELINE_COLOURS.windowEdge}` : undefined,
              }}
            />
            <Typography.Text type="secondary">{t(`legend.${k}`)}</Typography.Text>
          </Space>
        ))}
      </Space>
    </div>
  );
}
