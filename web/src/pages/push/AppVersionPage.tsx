import { PendingArea } from '../../components/PendingArea';

export default function AppVersionPage() {
  return <PendingArea view="AppVersion" />;
}
