// /erp/productRecords: see StockRecordsPage.tsx.
import { StockRecordsPage } from './StockRecordsPage';

export default function ErpProductRecordsPage() {
  return <StockRecordsPage kind={2} />;
}
