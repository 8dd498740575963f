import { PendingArea } from '../../components/PendingArea';

export default function AccountsPage() {
  return <PendingArea view="Accounts" />;
}
