// /erp/products: see StockThingsPage.tsx.
import { StockThingsPage } from './StockThingsPage';

export default function ErpProductsPage() {
  return <StockThingsPage kind={2} />;
}
