// /erp/materials: see StockThingsPage.tsx.
import { StockThingsPage } from './StockThingsPage';

export default function ErpMaterialsPage() {
  return <StockThingsPage kind={1} />;
}
