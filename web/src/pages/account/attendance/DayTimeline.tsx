// One device's day at one fence drawn on a 24-hour axis of the owner's time zone: the schedule's
// windows in a lane above (their edges drawn across the day's bar), inside and outside intervals in
// two colours, unknown greyed, ticks every two hours. Plain SVG positioned in percentages, so it
// takes its box's width while texts keep their size.
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DAY_MINUTES, axisTicks, type Segment } from './timeline';
import { SECONDARY_TEXT } from '../../../app/theme';

export const TIMELINE_COLOURS = {
  inside: '#52c41a',
  outside: '#fa8c16',
  unknown: '#d9d9d9',
  window: '#e6f4ff',
  windowEdge: '#1677ff',
} as const;

const LANE_Y = 0;
const LANE_H = 22;
const BAR_Y = LANE_H + 8;
const BAR_H = 36;
const TICK_Y = BAR_Y + BAR_H;
const H = TICK_Y + 24;

const pct = (minute: number) => `${(minute / DAY_MINUTES) * 100}%`;
const widthPct = (s: Segment) => `${((s.to - s.from) / DAY_MINUTES) * 100}%`;

export function DayTimeline({ intervals, windows }: { intervals: Segment[]; windows: Segment[] }) {
  const { t } = useTranslation('attendance');
  const label = (s: Segment) =>
    `${t(`legend.${s.kind}`)} ${s.start}–${s.end}${s.before ? ` (${t('detail.continued')})` : ''}${s.after ? ` (${t('detail.continues')})` : ''}`;
  return (
    <div data-testid="attendance-timeline">
      <div style={{ padding: '0 18px' }}>
        <svg width="100%" height={H} role="img" aria-label={t('detail.summary')} style={{ display: 'block', overflow: 'visible' }}>
          {windows.map((w, i) => (
            <g key={`w${i}`} data-kind="window">
              <title>{label(w)}</title>
              <rect x={pct(w.from)} y={LANE_Y} width={widthPct(w)} height={LANE_H} rx={3} fill={TIMELINE_COLOURS.window} stroke={TIMELINE_COLOURS.windowEdge} />
              {/* The window's hours inside its band when there is room (an hour and a half). */}
              {w.to - w.from >= 90 ? (
                <text x={pct((w.from + w.to) / 2)} y={LANE_Y + 15} fontSize={11} textAnchor="middle" fill={TIMELINE_COLOURS.windowEdge}>
                  {w.start}–{w.end}
                  {w.after ? ' →' : ''}
                </text>
              ) : null}
            </g>
          ))}
          <rect x="0" y={BAR_Y} width="100%" height={BAR_H} fill="#fafafa" stroke="#f0f0f0" />
          {intervals.map((s, i) => (
            <rect key={`i${i}`} data-kind={s.kind} x={pct(s.from)} y={BAR_Y} width={widthPct(s)} height={BAR_H} fill={TIMELINE_COLOURS[s.kind as 'inside' | 'outside' | 'unknown']}>
              <title>{label(s)}</title>
            </rect>
          ))}
          {/* Window edges again over the intervals, so the schedule reads across the bar. */}
          {windows.map((w, i) => (
            <g key={`e${i}`}>
              <line x1={pct(w.from)} x2={pct(w.from)} y1={BAR_Y} y2={TICK_Y} stroke={TIMELINE_COLOURS.windowEdge} strokeWidth={2} />
              {w.after ? null : <line x1={pct(w.to)} x2={pct(w.to)} y1={BAR_Y} y2={TICK_Y} stroke={TIMELINE_COLOURS.windowEdge} strokeWidth={2} />}
            </g>
          ))}
          {axisTicks(2).map((tick) => (
            <g key={tick.minute}>
              <line x1={pct(tick.minute)} x2={pct(tick.minute)} y1={TICK_Y} y2={TICK_Y + 5} stroke="#bfbfbf" />
              <text x={pct(tick.minute)} y={TICK_Y + 18} fontSize={11} textAnchor="middle" fill={SECONDARY_TEXT}>
                {tick.label}
              </text>
            </g>
          ))}
        </svg>
      </div>
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
