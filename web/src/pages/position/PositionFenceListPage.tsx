import { PendingArea } from '../../components/PendingArea';

export default function PositionFenceListPage() {
  return <PendingArea view="PositionFenceList" />;
}
