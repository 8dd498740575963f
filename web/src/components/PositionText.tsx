// A position as the console shows it everywhere: its address (the platform's reverse geocoder, the
// same lookups the monitor's device card makes, shared through the query cache), with the
// coordinates in one format (latitude, longitude, 5 decimals), the accuracy when one is known and
// the time in a tooltip. Until the address is there, the coordinates stand in.
import { shownTime } from '../session/time';
import { Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { USER_DATA } from '../i18n/texts';

/** The coordinates in the console's one format: "22.54321, 114.05432". */
export function coordinatesText(lat: number, lon: number): string {
  return `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
}

/** The address of a point, looked up once per point (about 10 m) and kept for five minutes. */
export function useAddress(lat: number | null | undefined, lon: number | null | undefined) {
  const la = lat == null ? null : Math.round(lat * 1e4) / 1e4;
  const lo = lon == null ? null : Math.round(lon * 1e4) / 1e4;
  return useQuery({
    queryKey: ['address', la, lo],
    queryFn: () => call('/device/reverse_Geocoding_gaode', { Lat: lat!, Lon: lon! }).then((r) => r.Address),
    enabled: la !== null && lo !== null,
    staleTime: 5 * 60_000,
  });
}

export interface PositionTextProps {
  lat: number | null | undefined;
  lon: number | null | undefined;
  /** Metres; left out when unknown or 0. */
  accuracy?: number | null;
  /** When the position was taken (an instant), shown in the tooltip in the viewer's zone. */
  time?: string | null;
}

export function PositionText({ lat, lon, accuracy, time }: PositionTextProps) {
  const { t } = useTranslation('widgets');
  const address = useAddress(lat, lon);
  if (lat == null || lon == null) return <Typography.Text type="secondary">—</Typography.Text>;
  const coordinates = coordinatesText(lat, lon);
  const around = accuracy != null && accuracy > 0 ? t('position.accuracy', { metres: Math.round(accuracy) }) : '';
  const tip = [coordinates + (around ? ` ${around}` : ''), time ? shownTime(time) : ''].filter(Boolean).join(' · ');
  return (
    <Tooltip title={tip}>
      <span data-testid="position-text" data-coordinates={coordinates} {...(address.data ? USER_DATA : {})}>
        {address.data || coordinates}
        {around && !address.data ? ` ${around}` : ''}
      </span>
    </Tooltip>
  );
}
