import { PendingArea } from '../../components/PendingArea';

export default function AccountFencePage() {
  return <PendingArea view="AccountFence" />;
}
