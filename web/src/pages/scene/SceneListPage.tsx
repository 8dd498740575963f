import { PendingArea } from '../../components/PendingArea';

export default function SceneListPage() {
  return <PendingArea view="SceneList" />;
}
