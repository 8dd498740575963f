// Alarm settings (/alarm/alarmSetting): how this user's consoles show each alarm type (pop-up on or
// off; 1 no auto-close, 2 auto-close, 3 ring), the health, speed and no-motion thresholds of the
// account or of one of its devices (by IMEI), and alarm contacts told by SMS or e-mail.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Col, Form, Input, InputNumber, Popconfirm, Radio, Row, Select, Space, Switch, Table, Tabs, Tag, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { saveAlarmContactRequest, type AlarmContact, type AlarmType, type HealthThresholds } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { errorText } from '../../i18n/errors';
import { FormDialog } from '../../patterns';
import { useCan } from '../../access/can';
import { useSession } from '../../stores/session';
import { ScheduleInput } from '../account/fence/ScheduleInput';
import { ALARM_KEY, useAlarmSettings, useAlarmTypeName, useAlarmTypes } from './queries';

function PopupSettings({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const types = useAlarmTypes();
  const typeName = useAlarmTypeName();
  const { settings, ruleFor } = useAlarmSettings();
  const save = async (type: AlarmType, change: { NewState?: number; RingType?: number }) => {
    const current = ruleFor(type.Code);
    try {
      await call('/ExceptionMessage/saveAlarmRules', {
        ExceptionTypeId: type.Id,
        NewState: change.NewState ?? (current.show ? 1 : 2),
        RingType: change.RingType ?? current.ringType,
      });
      message.success(t('alarm:setting.saved'));
      await qc.invalidateQueries({ queryKey: [...ALARM_KEY, 'settings'] });
    } catch (e) {
      message.error(errorText(t, e));
    }
  };
  const reset = async (id: number) => {
    await call('/ExceptionMessage/DeleteAlarmSetById', { Id: id });
    await qc.invalidateQueries({ queryKey: [...ALARM_KEY, 'settings'] });
  };
  return (
    <Table<AlarmType>
      rowKey="Id"
      size="middle"
      loading={types.isLoading}
      dataSource={(types.data ?? []).filter((x) => x.Enabled === 1)}
      pagination={false}
      columns={[
        { key: 'Code', title: t('alarm:type.code'), dataIndex: 'Code', width: 80 },
        { key: 'Name', title: t('alarm:type.content'), render: (_, r) => typeName(r.Code), width: 180 },
        {
          key: 'NewState',
          title: t('alarm:setting.popup'),
          width: 120,
          render: (_, r) => (
            <Switch
              checked={ruleFor(r.Code).show}
              disabled={readOnly}
              onChange={(on) => void save(r, { NewState: on ? 1 : 2 })}
              aria-label={t('alarm:setting.popupFor', { name: typeName(r.Code) })}
            />
          ),
        },
        {
          key: 'RingType',
          title: t('alarm:setting.ringType'),
          width: 320,
          render: (_, r) => (
            <Radio.Group
              value={ruleFor(r.Code).ringType}
              disabled={readOnly}
              onChange={(e) => void save(r, { RingType: e.target.value as number })}
              options={[1, 2, 3].map((v) => ({ value: v, label: t(`alarm:settingRing.${v}`) }))}
            />
          ),
        },
        {
          key: 'own',
          title: t('alarm:setting.source'),
          width: 160,
          render: (_, r) => {
            const s = settings.find((x) => x.Code === r.Code);
            return s ? (
              <Space>
                <Tag color="blue">{t('alarm:setting.custom')}</Tag>
                {!readOnly && (
                  <Button type="link" size="small" onClick={() => void reset(s.Id)}>
                    {t('alarm:setting.reset')}
                  </Button>
                )}
              </Space>
            ) : (
              <Tag>{t('alarm:setting.default')}</Tag>
            );
          },
        },
      ]}
    />
  );
}

const THRESHOLD_ROWS: { label: string; min?: keyof HealthThresholds; max?: keyof HealthThresholds; unit: string; step?: number }[] = [
  { label: 'heartRate', min: 'heartRateMin', max: 'heartRateMax', unit: 'bpm' },
  { label: 'systolic', min: 'systolicMin', max: 'systolicMax', unit: 'mmHg' },
  { label: 'diastolic', min: 'diastolicMin', max: 'diastolicMax', unit: 'mmHg' },
  { label: 'bodyTemp', max: 'bodyTempMax', unit: '°C', step: 0.1 },
  { label: 'wristTemp', max: 'wristTempMax', unit: '°C', step: 0.1 },
  { label: 'bloodOxygen', min: 'bloodOxygenMin', unit: '%' },
  { label: 'speed', max: 'speedLimit', unit: 'km/h' },
  { label: 'noMotion', max: 'noMotionMinutes', unit: 'min' },
];

/** Whose thresholds the tab edits: the user's account, or one device of his subtree (by IMEI). */
type ThresholdTarget = { Imei?: string };

function Thresholds({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<HealthThresholds>();
  const [target, setTarget] = useState<ThresholdTarget>({});
  const [forDevice, setForDevice] = useState(false);
  const q = useQuery({ queryKey: [...ALARM_KEY, 'thresholds', target.Imei ?? ''], queryFn: () => call('/ExceptionMessage/allExceptionThreshold', target), retry: false });
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (q.data) form.setFieldsValue(q.data.Item);
  }, [q.data, form]);
  const submit = async (inherit = false) => {
    setBusy(true);
    try {
      const v = form.getFieldsValue();
      const r = await call('/ExceptionMessage/actionThresholdValue', inherit ? { ...target, Inherit: true } : { ...target, ...v });
      form.setFieldsValue(r.Item);
      await q.refetch();
      message.success(t('alarm:setting.saved'));
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  const input = (name: keyof HealthThresholds | undefined, step?: number) =>
    name ? (
      <Form.Item name={name} noStyle>
        <InputNumber step={step ?? 1} style={{ width: 110 }} placeholder={t('alarm:threshold.off')} data-testid={`threshold-${name}`} />
      </Form.Item>
    ) : (
      <Typography.Text type="secondary">—</Typography.Text>
    );
  const ready = !forDevice || !!target.Imei;
  return (
    <Form form={form} layout="vertical" style={{ maxWidth: 640 }} disabled={readOnly}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Radio.Group
          value={forDevice ? 'device' : 'account'}
          disabled={false}
          onChange={(e) => {
            const device = e.target.value === 'device';
            setForDevice(device);
            if (!device) setTarget({});
          }}
          optionType="button"
          options={[
            { value: 'account', label: t('alarm:threshold.forAccount') },
            { value: 'device', label: t('alarm:threshold.forDevice') },
          ]}
          data-testid="threshold-target"
        />
        {forDevice ? (
          <Input.Search
            allowClear
            disabled={false}
            maxLength={15}
            style={{ width: 240 }}
            placeholder={t('alarm:threshold.imei')}
            enterButton
            onSearch={(v) => setTarget(v.trim() ? { Imei: v.trim() } : {})}
            data-testid="threshold-imei"
          />
        ) : null}
      </Space>
      {q.isError && ready ? (
        <Alert type="error" showIcon style={{ marginBottom: 12 }} title={errorText(t, q.error)} data-testid="threshold-error" />
      ) : null}
      <Typography.Paragraph type="secondary">
        {t('alarm:threshold.hint')} {q.data && ready && !q.isError ? <Tag data-testid="threshold-source">{t(`alarm:threshold.source.${q.data.Source}`)}</Tag> : null}
      </Typography.Paragraph>
      <Table
        rowKey="label"
        size="small"
        pagination={false}
        // A device that could not be read shows no values (not those of the account read before).
        dataSource={q.isError && ready ? [] : THRESHOLD_ROWS}
        columns={[
          { key: 'label', title: t('alarm:threshold.measure'), render: (_, r) => t(`alarm:measure.${r.label}`) },
          { key: 'min', title: t('alarm:threshold.min'), render: (_, r) => input(r.min, r.step) },
          { key: 'max', title: t('alarm:threshold.max'), render: (_, r) => input(r.max, r.step) },
          { key: 'unit', title: t('alarm:threshold.unit'), dataIndex: 'unit' },
        ]}
      />
      <Form.Item name="noMotionSchedule" label={t('alarm:threshold.noMotionWindow')} extra={t('alarm:threshold.noMotionWindowHint')} style={{ marginTop: 16 }}>
        <ScheduleInput />
      </Form.Item>
      {!readOnly && (
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" loading={busy} disabled={!ready || q.isError} onClick={() => void submit()} data-testid="threshold-save">
            {t('alarm:save')}
          </Button>
          <Button disabled={busy || !ready || q.isError} onClick={() => void submit(true)}>
            {t('alarm:threshold.inherit')}
          </Button>
        </Space>
      )}
    </Form>
  );
}

/** A quiet-hours time: HH:mm text in the form and on the wire, a time picker's value on screen. */
const QUIET_TIME_PROPS = {
  getValueProps: (v: string | undefined) => ({ value: v ? dayjs().hour(Number(v.slice(0, 2))).minute(Number(v.slice(3, 5))).second(0) : null }),
  getValueFromEvent: (d: Dayjs | null) => (d ? d.format('HH:mm') : ''),
};

function Contacts({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  // Texts go out only while the account's message service (granted from above) is on.
  const smsService = useSession((s) => s.userInfo?.isSendMessage === 1);
  const qc = useQueryClient();
  const typeName = useAlarmTypeName();
  const types = useAlarmTypes();
  const [editing, setEditing] = useState<{ item: AlarmContact | null } | null>(null);
  const q = useQuery({ queryKey: [...ALARM_KEY, 'contacts'], queryFn: () => call('/ExceptionMessage/AlarmContactPersonByUserId', {}) });
  return (
    <>
      {!readOnly && (
        <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => setEditing({ item: null })}>
          {t('alarm:contact.add')}
        </Button>
      )}
      <Table<AlarmContact>
        rowKey="Id"
        size="middle"
        loading={q.isLoading}
        dataSource={q.data?.Items ?? []}
        pagination={false}
        columns={[
          { key: 'Name', title: t('alarm:contact.name'), dataIndex: 'Name' },
          { key: 'Phone', title: t('alarm:contact.phone'), dataIndex: 'Phone' },
          { key: 'Email', title: t('alarm:contact.email'), dataIndex: 'Email' },
          {
            key: 'Ways',
            title: t('alarm:contact.ways'),
            render: (_, r) => (
              <Space>
                {r.NotifySms === 1 ? <Tag>{t('alarm:contact.sms')}</Tag> : null}
                {r.NotifyEmail === 1 ? <Tag>{t('alarm:contact.mail')}</Tag> : null}
              </Space>
            ),
          },
          {
            key: 'Quiet',
            title: t('alarm:contact.quiet'),
            render: (_, r) => (r.QuietFrom ? `${r.QuietFrom}–${r.QuietTo}` : t('alarm:contact.quietNone')),
          },
          {
            key: 'Types',
            title: t('alarm:contact.types'),
            render: (_, r) => (r.Types.length ? r.Types.map((c) => <Tag key={c}>{typeName(c)}</Tag>) : t('alarm:contact.allTypes')),
          },
          {
            key: 'actions',
            title: t('alarm:actions'),
            width: 160,
            render: (_, r) =>
              readOnly ? null : (
              <Space size={0}>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ item: r })}>
                  {t('alarm:edit')}
                </Button>
                <Popconfirm
                  title={t('alarm:confirmDelete', { name: r.Name })}
                  onConfirm={async () => {
                    await call('/ExceptionMessage/DeleteAlarmContactPerson', { Id: r.Id });
                    await qc.invalidateQueries({ queryKey: [...ALARM_KEY, 'contacts'] });
                  }}
                >
                  <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                    {t('alarm:delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <FormDialog
        open={editing !== null}
        title={t(editing?.item ? 'alarm:contact.edit' : 'alarm:contact.add')}
        schema={saveAlarmContactRequest}
        initial={editing?.item ? { ...editing.item } : { NotifySms: 1, NotifyEmail: 1, Types: [], QuietFrom: '', QuietTo: '' }}
        submit={(v: z.input<typeof saveAlarmContactRequest>) => call('/ExceptionMessage/actionForAlarmContactPeople', v)}
        invalidate={[[...ALARM_KEY, 'contacts']]}
        onClose={() => setEditing(null)}
        fields={
          <>
            <Form.Item name="Name" label={t('alarm:contact.name')} required>
              <Input maxLength={64} />
            </Form.Item>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="Phone" label={t('alarm:contact.phone')}>
                  <Input maxLength={20} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="Email" label={t('alarm:contact.email')}>
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
            </Row>
            <Space size="large">
              <Form.Item
                name="NotifySms"
                label={t('alarm:contact.sms')}
                extra={smsService ? undefined : t('alarm:contact.smsOff')}
                getValueProps={(v) => ({ checked: v === 1 })}
                getValueFromEvent={(e) => (e.target.checked ? 1 : 2)}
              >
                <Checkbox />
              </Form.Item>
              <Form.Item name="NotifyEmail" label={t('alarm:contact.mail')} getValueProps={(v) => ({ checked: v === 1 })} getValueFromEvent={(e) => (e.target.checked ? 1 : 2)}>
                <Checkbox />
              </Form.Item>
            </Space>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="QuietFrom" label={t('alarm:contact.quietFrom')} extra={t('alarm:contact.quietHint')} {...QUIET_TIME_PROPS}>
                  <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} data-testid="contact-quiet-from" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="QuietTo" label={t('alarm:contact.quietTo')} {...QUIET_TIME_PROPS}>
                  <TimePicker format="HH:mm" minuteStep={5} style={{ width: '100%' }} data-testid="contact-quiet-to" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="Types" label={t('alarm:contact.types')} extra={t('alarm:contact.typesHint')}>
              <Select mode="multiple" allowClear options={(types.data ?? []).map((x) => ({ value: x.Code, label: typeName(x.Code) }))} />
            </Form.Item>
          </>
        }
      />
    </>
  );
}

export default function AlarmSettingPage() {
  const { t } = useTranslation();
  const readOnly = !useCan()('alarm.setting');
  return (
    <Card>
      <Tabs
        items={[
          { key: 'popup', label: t('alarm:setting.popupTab'), children: <PopupSettings readOnly={readOnly} /> },
          { key: 'threshold', label: t('alarm:setting.thresholdTab'), children: <Thresholds readOnly={readOnly} /> },
          { key: 'contacts', label: t('alarm:setting.contactsTab'), children: <Contacts readOnly={readOnly} /> },
        ]}
      />
    </Card>
  );
}
