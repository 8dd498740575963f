import { PendingArea } from '../../components/PendingArea';

export default function SettingFunctionPage() {
  return <PendingArea view="SettingFunction" />;
}
