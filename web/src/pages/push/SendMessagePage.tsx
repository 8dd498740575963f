import { PendingArea } from '../../components/PendingArea';

export default function SendMessagePage() {
  return <PendingArea view="SendMessage" />;
}
