// What a batch call did, shown to the user: a success note, or the devices refused and why
// (SPEC §8: already bound, not registered, not a sub-account device ...), one line per device.
import { App, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BatchFailure, BatchOutcome } from '../deviceForms';

export function useBatchFeedback() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  return (outcome: BatchOutcome, doneKey: string) => {
    if (!outcome.failed.length) {
      message.success(t(doneKey, { count: outcome.succeeded }));
      return;
    }
    modal.warning({
      width: 640,
      title: t('devices:batch.partial', { succeeded: outcome.succeeded, failed: outcome.failed.length }),
      content: (
        <Table<BatchFailure>
          data-testid="batch-failures"
          size="small"
          rowKey={(r) => r.imei}
          pagination={outcome.failed.length > 8 ? { pageSize: 8 } : false}
          dataSource={outcome.failed}
          columns={[
            { key: 'imei', title: 'IMEI', dataIndex: 'imei', width: 170 },
            { key: 'reason', title: t('devices:batch.reason'), render: (_, r) => t(`messages:${r.key}`, r.params) },
          ]}
        />
      ),
    });
  };
}
