import { PendingArea } from '../../components/PendingArea';

export default function SceneFloorsPage() {
  return <PendingArea view="SceneFloors" />;
}
