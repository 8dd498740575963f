import { PendingArea } from '../../components/PendingArea';

export default function PlatformPage() {
  return <PendingArea view="Platform" />;
}
