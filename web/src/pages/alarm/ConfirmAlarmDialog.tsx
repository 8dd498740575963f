// Confirming alarms with a remark: one alarm, all of today's of a device, or all of today's. The
// record list and the monitor's alarm panel share it.
import { useState } from 'react';
import { App, Input, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/errors';

export function ConfirmAlarmDialog({
  open,
  title,
  hint,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  hint?: string;
  /** Confirms with the remark; the dialog closes when it resolves and shows the error when it fails. */
  onSubmit: (remark: string) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [remark, setRemark] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    setBusy(true);
    try {
      await onSubmit(remark.trim());
      setRemark('');
      onClose();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={t('alarm:record.confirm')}
      destroyOnHidden
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        {hint ? <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph> : null}
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={remark}
          onChange={(e) => setRemark(e.target.value)}
          placeholder={t('alarm:record.remarkPlaceholder')}
          data-testid="confirm-remark"
        />
      </Space>
    </Modal>
  );
}
