import { PendingArea } from '../../components/PendingArea';

export default function MonitorDetailPage() {
  return <PendingArea view="MonitorDetail" />;
}
