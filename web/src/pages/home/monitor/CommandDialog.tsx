// A quick command from the device card: locate now, upload interval, a text message, reboot,
// power off. The full set lives in the device list's command dialog.
import { useState } from 'react';
import { App, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@wt/contract';
import { ApiError, call } from '../../../api/client';
import { commandName } from '../../../i18n/texts';

const CODES = ['FIND', 'UPLOAD', 'MESSAGE', 'RESET', 'POWEROFF'] as const;

export function CommandDialog({ imei, open, onClose }: { imei: string; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('monitor');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ code: (typeof CODES)[number]; interval?: number; text?: string }>();
  const code = Form.useWatch('code', form);
  const [busy, setBusy] = useState(false);

  const send = async () => {
    // A refused form shows its own messages; nothing is sent and nothing is left to throw.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const params = v.code === 'UPLOAD' ? { interval: v.interval } : v.code === 'MESSAGE' ? { text: v.text } : {};
    setBusy(true);
    try {
      await call('/Command/SendCommand', { Imei: imei, Code: v.code, Params: params });
      void message.success(t('command.sent'));
      onClose();
    } catch (e) {
      const err = e as ApiError;
      const field = err.fields?.[0];
      void message.error(field ? t(`messages:${field.Message}`, field.Params) : err.text || t(`messages:${err.messageKey}`, err.params));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('command.title', { imei })} onCancel={onClose} onOk={() => void send()} confirmLoading={busy} okText={t('command.send')} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ code: 'FIND', interval: 10 }}>
        <Form.Item name="code" label={t('command.code')}>
          <Select options={CODES.map((c) => ({ value: c, label: commandName(t, c) }))} />
        </Form.Item>
        {code === 'UPLOAD' && (
          <Form.Item name="interval" label={t('command.interval')} rules={[{ required: true, message: t('messages:validation.intervalRange') }]}>
            <InputNumber min={LIMITS.intervalMin} max={LIMITS.intervalMax} style={{ width: '100%' }} />
          </Form.Item>
        )}
        {code === 'MESSAGE' && (
          <Form.Item name="text" label={t('command.text')} rules={[{ required: true, whitespace: true, message: t('messages:validation.required') }]}>
            <Input.TextArea rows={3} maxLength={120} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
