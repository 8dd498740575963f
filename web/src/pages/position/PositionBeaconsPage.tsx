import { PendingArea } from '../../components/PendingArea';

export default function PositionBeaconsPage() {
  return <PendingArea view="PositionBeacons" />;
}
