import { PendingArea } from '../../components/PendingArea';

export default function AccountRolePage() {
  return <PendingArea view="AccountRole" />;
}
