import { PendingArea } from '../../components/PendingArea';

export default function InventoryBatchPage() {
  return <PendingArea view="InventoryBatch" />;
}
