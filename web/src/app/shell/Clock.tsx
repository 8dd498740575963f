import { useEffect, useState } from 'react';
import { shownTime } from '../../session/time';

/** Current date-time, refreshed every second (YYYY-MM-DD HH:mm:ss). */
export function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const id = window.setInterval(() => setNow(new Date()), 1000);
    return () => window.clearInterval(id);
  }, []);
  return <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-testid="clock">{shownTime(now)}</span>;
}
