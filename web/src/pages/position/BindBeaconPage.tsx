import { PendingArea } from '../../components/PendingArea';

export default function BindBeaconPage() {
  return <PendingArea view="BindBeacon" />;
}
