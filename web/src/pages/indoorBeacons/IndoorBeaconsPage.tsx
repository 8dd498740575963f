// Every beacon of the platform with its owner account (the administrator's page).
import { BeaconRegistry } from '../position/beacons/BeaconRegistry';

export default function IndoorBeaconsPage() {
  return <BeaconRegistry platformWide />;
}
