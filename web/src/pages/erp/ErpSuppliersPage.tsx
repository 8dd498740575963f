// /erp/suppliers: see PartiesPage.tsx.
import { PartiesPage } from './PartiesPage';

export default function ErpSuppliersPage() {
  return <PartiesPage kind="supplier" />;
}
