import { PendingArea } from '../../components/PendingArea';

export default function SceneMapPage() {
  return <PendingArea view="SceneMap" />;
}
