// The upload interval sent to many devices at once (2-660 minutes), available while the
// account's batch-command switch is on.
import { useState } from 'react';
import { App, Form, InputNumber, Modal } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@wt/contract';
import { call } from '../../../api/client';
import { errorText } from '../../../i18n/errors';
import { checkCommand } from '../commandForms';
import { batchOutcome } from '../deviceForms';
import { useBatchFeedback } from '../dialogs/batchFeedback';

export function BatchIntervalDialog({ open, imeis, onClose }: { open: boolean; imeis: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const feedback = useBatchFeedback();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    // Errors of the last attempt go before this one is checked.
    form.setFields(form.getFieldsError().map((f) => ({ name: f.name, errors: [] })));
    const r = checkCommand('UPLOAD', form.getFieldsValue());
    if (!r.ok) {
      form.setFields(r.errors.map((e) => ({ name: e.name, errors: [t(`messages:${e.key}`, e.params)] })));
      return;
    }
    setBusy(true);
    try {
      feedback(batchOutcome(await call('/Command/batchSendFrequencyByUser', { Imeis: imeis, Interval: Number(r.params.interval) })), 'commands:batch.done');
      await qc.invalidateQueries({ queryKey: ['devices', 'commands'] });
      onClose();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('commands:batch.title')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden>
      <p>{t('devices:batch.selected', { count: imeis.length })}</p>
      <Form form={form} layout="vertical" initialValues={{ interval: 10 }}>
        <Form.Item name="interval" label={t('commands:field.intervalMinutes')} extra={t('commands:hint.interval', { min: LIMITS.intervalMin, max: LIMITS.intervalMax })}>
          <InputNumber style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
