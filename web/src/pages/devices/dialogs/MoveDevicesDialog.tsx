// Move the selected devices to another account of the caller's subtree; the refused ones are
// listed with their reason (same account, not registered, not a sub-account device: SPEC §8).
import { useState } from 'react';
import { App, Form, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../i18n/errors';
import { batchOutcome } from '../deviceForms';
import { invalidateDevices } from '../queries';
import { AccountSelect } from './AccountSelect';
import { useBatchFeedback } from './batchFeedback';

export function MoveDevicesDialog({ open, imeis, onClose }: { open: boolean; imeis: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const feedback = useBatchFeedback();
  const [target, setTarget] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!target) {
      message.warning(t('devices:move.pickAccount'));
      return;
    }
    setBusy(true);
    try {
      feedback(batchOutcome(await call('/Device/batchMoveDeviceToAccount', { Imeis: imeis, TargetUserId: target })), 'devices:batch.done.move');
      await invalidateDevices(qc);
      setTarget(undefined);
      onClose();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('devices:move.title')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden>
      <p>{t('devices:batch.selected', { count: imeis.length })}</p>
      <Form layout="vertical">
        <Form.Item label={t('devices:move.target')} required>
          <AccountSelect value={target} onChange={setTarget} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
