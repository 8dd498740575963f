// The wearer of a device: avatar, name, gender, age (at most 120), phone and email (formats
// checked), address, blood type and remark, checked with the contract's schema.
import { useEffect, useState } from 'react';
import { App, Avatar, Button, Col, Form, Input, InputNumber, Modal, Radio, Row, Select, Space, Spin, Upload } from 'antd';
import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { person } from '@wt/contract';
import type { DeviceItem } from '../queries';
import { call } from '../../../api/client';
import { schemaValidator } from '../../../forms/validate';
import { errorText } from '../../../i18n/errors';
import { readAsBase64 } from '../../../components/ImportDialog';
import { showIssues, showServerFields } from './formErrors';

const FIELDS = ['Name', 'Gender', 'Age', 'Phone', 'Email', 'Address', 'Remark', 'BloodType', 'Avatar'];
const validate = schemaValidator<Record<string, unknown>>(person.savePersonProfileRequest);

export function PersonDialog({ device, onClose }: { device: Pick<DeviceItem, 'Imei' | 'Name'> | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const imei = device?.Imei ?? '';
  const profile = useQuery({ queryKey: ['devices', 'person', imei], queryFn: () => call('/Person/GetPersonProfile', { Imei: imei }), enabled: !!device });
  /** A new avatar as a data: URL, '' to remove, undefined to keep. */
  const [avatar, setAvatar] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!device) return;
    setAvatar(undefined);
    const p = profile.data?.Item;
    form.resetFields();
    if (p) form.setFieldsValue({ Name: p.Name, Gender: p.Gender ?? undefined, Age: p.Age ?? undefined, Phone: p.Phone, Email: p.Email, Address: p.Address, Remark: p.Remark, BloodType: p.BloodType ?? undefined });
  }, [device, profile.data, form]);

  const pickAvatar = async (file: File) => {
    if (!(person.AVATAR_TYPES as readonly string[]).includes(file.type)) {
      message.error(t('messages:device.avatarType'));
      return;
    }
    if (file.size > person.AVATAR_MAX_BYTES) {
      message.error(t('messages:device.avatarTooLarge', { max: person.AVATAR_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    setAvatar(`data:${file.type};base64,${await readAsBase64(file)}`);
  };

  const submit = async () => {
    const values = { ...form.getFieldsValue(), Imei: imei, ...(avatar !== undefined ? { Avatar: avatar } : {}) };
    if (showIssues(form, validate(values), t, FIELDS)) return;
    setBusy(true);
    try {
      await call('/Person/SavePersonProfile', values);
      message.success(t('messages:device.saved'));
      await qc.invalidateQueries({ queryKey: ['devices'] });
      onClose();
    } catch (e) {
      if (!showServerFields(form, e, t, FIELDS)) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const shown = avatar !== undefined ? avatar : profile.data?.Item.Avatar;
  return (
    <Modal open={!!device} title={t('devices:person.title', { name: device?.Name || imei })} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} width={640} forceRender>
      <Spin spinning={profile.isLoading}>
        <Form form={form} layout="vertical" data-testid="person-form">
          <Form.Item label={t('devices:person.avatar')}>
            <Space>
              <Avatar size={64} src={shown || undefined} icon={<UserOutlined />} />
              <Upload accept={person.AVATAR_TYPES.join(',')} showUploadList={false} beforeUpload={(f) => (void pickAvatar(f), false)}>
                <Button icon={<UploadOutlined />}>{t('devices:person.upload')}</Button>
              </Upload>
              {shown ? (
                <Button type="link" danger onClick={() => setAvatar('')}>
                  {t('devices:person.removeAvatar')}
                </Button>
              ) : null}
            </Space>
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="Name" label={t('devices:person.name')}>
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="Gender" label={t('devices:person.gender')}>
                <Radio.Group options={person.GENDERS.map((g) => ({ value: g, label: t(`devices:person.genders.${g}`) }))} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="Age" label={t('devices:person.age')}>
                <InputNumber style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="BloodType" label={t('devices:person.bloodType')}>
                <Select allowClear options={person.BLOOD_TYPES.map((b) => ({ value: b, label: b }))} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="Phone" label={t('devices:person.phone')}>
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="Email" label={t('devices:person.email')}>
                <Input maxLength={128} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="Address" label={t('devices:person.address')}>
            <Input maxLength={256} />
          </Form.Item>
          <Form.Item name="Remark" label={t('devices:person.remark')}>
            <Input.TextArea rows={2} maxLength={512} />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
