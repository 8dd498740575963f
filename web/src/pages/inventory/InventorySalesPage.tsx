import { PendingArea } from '../../components/PendingArea';

export default function InventorySalesPage() {
  return <PendingArea view="InventorySales" />;
}
