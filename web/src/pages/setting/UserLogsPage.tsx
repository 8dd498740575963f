import { PendingArea } from '../../components/PendingArea';

export default function UserLogsPage() {
  return <PendingArea view="UserLogs" />;
}
