// Add one device: model, 15-digit IMEI and nickname required (SPEC §5), checked with the
// contract's schema before the call and again by the server.
import { useState } from 'react';
import { App, Form, Input, Modal, Select } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { device } from '@wt/contract';
import { call } from '../../../api/client';
import { schemaValidator } from '../../../forms/validate';
import { errorText } from '../../../i18n/errors';
import { invalidateDevices, useDictionary } from '../queries';
import { showIssues, showServerFields } from './formErrors';

const FIELDS = ['ModelId', 'Imei', 'Name', 'Iccid', 'SoftwareVersion', 'GroupId', 'RoleId'];
const validate = schemaValidator<Record<string, unknown>>(device.addDeviceRequest);

export function AddDeviceDialog({ open, onClose, userId }: { open: boolean; onClose: () => void; userId?: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const dict = useDictionary();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const values = { ...form.getFieldsValue(), UserId: userId };
    if (showIssues(form, validate(values), t, FIELDS)) return;
    setBusy(true);
    try {
      await call('/Device/addDevices', values);
      message.success(t('messages:device.added'));
      await invalidateDevices(qc);
      form.resetFields();
      onClose();
    } catch (e) {
      if (!showServerFields(form, e, t, FIELDS)) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('devices:add.title')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" data-testid="add-device-form">
        <Form.Item name="ModelId" label={t('devices:field.model')} required>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={dict.isLoading}
            options={(dict.data?.Models ?? []).map((m) => ({ value: m.ModelId, label: m.Name }))}
            placeholder={t('devices:placeholder.model')}
          />
        </Form.Item>
        <Form.Item name="Imei" label="IMEI" required>
          <Input maxLength={15} placeholder={t('devices:placeholder.imei')} />
        </Form.Item>
        <Form.Item name="Name" label={t('devices:field.nickname')} required>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="Iccid" label="ICCID">
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="GroupId" label={t('devices:field.group')}>
          <Select allowClear options={(dict.data?.Groups ?? []).map((g) => ({ value: g.GroupId, label: g.Name }))} />
        </Form.Item>
        <Form.Item name="RoleId" label={t('devices:field.role')}>
          <Select allowClear options={(dict.data?.Roles ?? []).map((r) => ({ value: r.RoleId, label: r.Name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
