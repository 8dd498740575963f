// Create a sub-account and give it devices: the listed IMEIs move to it, unregistered ones are
// created with the chosen model; ICCIDs, when entered, are as many as the IMEIs (SPEC §5).
import { useEffect, useState } from 'react';
import { App, Col, Form, Input, Modal, Row, Select } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { device } from '@wt/contract';
import { call } from '../../../api/client';
import { schemaValidator } from '../../../forms/validate';
import { errorText } from '../../../i18n/errors';
import { checkImeiIccid, parseList } from '../deviceForms';
import { invalidateDevices, useDictionary } from '../queries';
import { showIssues, showServerFields } from './formErrors';

const FIELDS = ['LoginName', 'Password', 'Username', 'Email', 'imeis', 'iccids', 'ModelId'];
const validate = schemaValidator<Record<string, unknown>>(device.createUserWithDevicesRequest);

export function CreateUserDialog({ open, imeis, onClose }: { open: boolean; imeis: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const dict = useDictionary();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) form.setFieldsValue({ imeis: imeis.join('\n') });
  }, [open, imeis, form]);

  const submit = async () => {
    const v = form.getFieldsValue();
    const body = { LoginName: v.LoginName, Password: v.Password, Username: v.Username || undefined, Email: v.Email || undefined, Imeis: parseList(v.imeis), Iccids: parseList(v.iccids), ModelId: v.ModelId };
    const rename = (f: string) => (f === 'Imeis' ? 'imeis' : f === 'Iccids' ? 'iccids' : f);
    const issues = [...checkImeiIccid(v.imeis, v.iccids), ...validate(body).map((i) => ({ ...i, field: rename(i.field) })).filter((i) => i.field !== 'imeis' && i.field !== 'iccids')];
    if (showIssues(form, issues, t, FIELDS)) return;
    setBusy(true);
    try {
      const r = await call('/Device/batchDevicesCreateUser', body);
      message.success(t('devices:createUser.done', { loginName: r.LoginName, moved: r.Moved, created: r.Created }));
      await invalidateDevices(qc);
      form.resetFields();
      onClose();
    } catch (e) {
      if (!showServerFields(form, e, t, FIELDS, { Imeis: 'imeis', Iccids: 'iccids' })) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} title={t('devices:createUser.title')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} width={640} forceRender>
      <Form form={form} layout="vertical">
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="LoginName" label={t('devices:createUser.loginName')} required>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="Password" label={t('devices:createUser.password')} required>
              <Input.Password maxLength={30} autoComplete="new-password" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="Username" label={t('devices:createUser.username')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="Email" label={t('devices:createUser.email')}>
              <Input maxLength={128} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="imeis" label={t('devices:batch.imeis')} required extra={t('devices:batch.listHint')}>
          <Input.TextArea rows={4} />
        </Form.Item>
        <Form.Item name="iccids" label={t('devices:batch.iccids')} extra={t('devices:batch.iccidHint')}>
          <Input.TextArea rows={3} />
        </Form.Item>
        <Form.Item name="ModelId" label={t('devices:field.model')} extra={t('devices:createUser.modelHint')}>
          <Select allowClear options={(dict.data?.Models ?? []).map((m) => ({ value: m.ModelId, label: m.Name }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
