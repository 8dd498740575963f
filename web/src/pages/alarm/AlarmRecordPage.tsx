// Alarm records (/alarm/record): every alarm of the account's subtree.
import { Card } from 'antd';
import { AlarmRecordTable } from './AlarmRecordTable';

export default function AlarmRecordPage() {
  return (
    <Card>
      <AlarmRecordTable />
    </Card>
  );
}
