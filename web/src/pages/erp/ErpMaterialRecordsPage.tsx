// /erp/materialRecords: see StockRecordsPage.tsx.
import { StockRecordsPage } from './StockRecordsPage';

export default function ErpMaterialRecordsPage() {
  return <StockRecordsPage kind={1} />;
}
