// The beacons of the caller's subtree (SPEC §3 Beacon), both identity models.
import { BeaconRegistry } from './beacons/BeaconRegistry';

export default function PositionBeaconsPage() {
  return <BeaconRegistry />;
}
