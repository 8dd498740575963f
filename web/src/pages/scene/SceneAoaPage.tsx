import { PendingArea } from '../../components/PendingArea';

export default function SceneAoaPage() {
  return <PendingArea view="SceneAoa" />;
}
