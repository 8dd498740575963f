import { PendingArea } from '../../components/PendingArea';

export default function InnerMapPage() {
  return <PendingArea view="InnerMap" />;
}
