import { PendingArea } from '../../components/PendingArea';

export default function InventoryListPage() {
  return <PendingArea view="InventoryList" />;
}
