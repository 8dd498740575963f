import { PendingArea } from '../../components/PendingArea';

export default function SceneBeaconsPage() {
  return <PendingArea view="SceneBeacons" />;
}
