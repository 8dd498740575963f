// Scene beacons (/scene/beacons?scene=&floor=): every anchor of a floor (BLE beacons, UWB anchors,
// AOA locators) on its plan and in a list, and the floor's calibration.
import { AnchorsPage } from './AnchorsPage';

export default function SceneBeaconsPage() {
  return <AnchorsPage aoa={false} />;
}
