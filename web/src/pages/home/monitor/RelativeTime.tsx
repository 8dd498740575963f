import { useTranslation } from 'react-i18next';
import { relativeTime } from '@wt/contract';
import { useViewerOffset } from '../../../session/time';

/** "just now", "5 min ago" ... (SPEC §9 relative time). */
export function RelativeTime({ value }: { value: number | string | null | undefined }) {
  const { t } = useTranslation();
  const offset = useViewerOffset();
  if (value === null || value === undefined) return <>-</>;
  const r = relativeTime(value, Date.now(), offset);
  if (r.key === 'date') return <>{r.text}</>;
  return <>{r.key === 'minutesAgo' || r.key === 'hoursAgo' ? t(`common:time.${r.key}`, { count: r.count }) : t(`common:time.${r.key}`)}</>;
}
