import { PendingArea } from '../../components/PendingArea';

export default function IndoorBeaconsPage() {
  return <PendingArea view="IndoorBeacons" />;
}
