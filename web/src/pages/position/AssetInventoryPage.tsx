import { PendingArea } from '../../components/PendingArea';

export default function AssetInventoryPage() {
  return <PendingArea view="AssetInventory" />;
}
