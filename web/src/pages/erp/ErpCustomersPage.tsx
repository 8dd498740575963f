// /erp/customers: see PartiesPage.tsx.
import { PartiesPage } from './PartiesPage';

export default function ErpCustomersPage() {
  return <PartiesPage kind="customer" />;
}
