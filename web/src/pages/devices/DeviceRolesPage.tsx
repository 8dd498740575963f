// Device roles (/devices/roles): how devices are drawn on the map (colour and shape). Name and
// colour required, at most 30 per account (SPEC §5, §8); devices are assigned to a role here.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Form, Input, Modal, Popconfirm, Radio, Select, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS, device, formatDateTime, role as roleSchemas } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { schemaValidator } from '../../forms/validate';
import { errorText } from '../../i18n/errors';
import { userDataCell } from '../../i18n/texts';
import { batchOutcome } from './deviceForms';
import { useBatchFeedback } from './dialogs/batchFeedback';
import { showIssues, showServerFields } from './dialogs/formErrors';
import { DEVICE_KEYS, invalidateDevices } from './queries';
import { ROLE_HEX, RoleSwatch } from './parts';
import { MarkerSwatch } from '../home/monitor/MapLegend';

type DeviceRole = z.infer<typeof roleSchemas.roleSchema>;
const FIELDS = ['Name', 'Description', 'Color', 'Shape'];
const validate = schemaValidator<Record<string, unknown>>(roleSchemas.saveRoleRequest);

function RoleDialog({ role, open, onClose }: { role: DeviceRole | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);

  // Filled when the dialog opens (not after its animation, which would wipe what was typed).
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(role ? { Name: role.Name, Description: role.Description, Color: role.Color, Shape: role.Shape } : { Name: '', Description: '', Color: undefined, Shape: 'circle' });
  }, [open, role, form]);

  const submit = async () => {
    const values = { ...form.getFieldsValue(), ...(role ? { RoleId: role.RoleId } : {}) };
    if (showIssues(form, validate(values), t, FIELDS)) return;
    setBusy(true);
    try {
      await call('/DeviceRole/Save', values);
      message.success(t('messages:device.saved'));
      await invalidateDevices(qc);
      onClose();
    } catch (e) {
      if (!showServerFields(form, e, t, FIELDS)) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(role ? 'devices:roles.edit' : 'devices:roles.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="role-form">
        <Form.Item name="Name" label={t('devices:roles.name')} required>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="Description" label={t('devices:roles.description')}>
          <Input.TextArea rows={2} maxLength={256} />
        </Form.Item>
        <Form.Item name="Color" label={t('devices:roles.color')} required>
          <Radio.Group>
            {device.ROLE_COLORS.map((c) => (
              <Radio key={c} value={c} data-testid={`role-color-${c}`}>
                <Space size={4}>
                  <span style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background: ROLE_HEX[c], verticalAlign: 'middle' }} />
                  {t(`devices:colors.${c}`)}
                </Space>
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item name="Shape" label={t('devices:roles.shape')}>
          <Radio.Group>
            {device.ROLE_SHAPES.map((s) => (
              <Radio key={s} value={s}>
                <Space size={4}>
                  <RoleSwatch color="blue" shape={s} />
                  {t(`devices:shapes.${s}`)}
                </Space>
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Pick devices by IMEI or name (searched on the server) and give them the role. */
function AssignDevicesDialog({ role, onClose }: { role: DeviceRole | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const feedback = useBatchFeedback();
  const [search, setSearch] = useState('');
  const [imeis, setImeis] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const found = useQuery({
    queryKey: ['devices', 'pick', search],
    queryFn: () => call('/Device/devicesByUserId', /^\d+$/.test(search) ? { PageNo: 1, PageCount: 20, Imei: search } : { PageNo: 1, PageCount: 20, Name: search || undefined }),
    enabled: !!role,
  });

  const submit = async () => {
    if (!role || !imeis.length) return;
    setBusy(true);
    try {
      feedback(batchOutcome(await call('/DeviceRole/AssignDevices', { Imeis: imeis, RoleId: role.RoleId })), 'devices:assign.done');
      await invalidateDevices(qc);
      setImeis([]);
      onClose();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={!!role} title={t('devices:roles.assignTitle', { name: role?.Name ?? '' })} onCancel={onClose} onOk={() => void submit()} okButtonProps={{ disabled: !imeis.length }} confirmLoading={busy} destroyOnHidden>
      <Select
        mode="multiple"
        style={{ width: '100%' }}
        placeholder={t('devices:roles.pickDevices')}
        value={imeis}
        onChange={setImeis}
        showSearch={{ filterOption: false, onSearch: setSearch }}
        loading={found.isFetching}
        options={(found.data?.Items ?? []).map((d) => ({ value: d.Imei, label: `${d.Imei} ${d.Name}` }))}
        data-testid="role-devices"
      />
    </Modal>
  );
}

export default function DeviceRolesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<{ role: DeviceRole | null } | null>(null);
  const [assigning, setAssigning] = useState<DeviceRole | null>(null);
  const list = useQuery({ queryKey: [...DEVICE_KEYS.roles, 'count'], queryFn: () => call('/DeviceRole/List', {}) });
  const count = list.data?.Total ?? 0;
  const counted = list.data !== undefined;
  const full = count >= LIMITS.deviceRoles;

  const remove = async (r: DeviceRole) => {
    try {
      await call('/DeviceRole/Delete', { RoleIds: [r.RoleId] });
      message.success(t('messages:device.deleted'));
      await invalidateDevices(qc);
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  return (
    <Card>
      {/* A role may be red, and SOS is red too: on the map only SOS has the ring. */}
      <Alert
        type="info"
        style={{ marginBottom: 12 }}
        data-testid="roles-sos-hint"
        title={
          <Space size={8}>
            <MarkerSwatch shape="circle" fill="#f5222d" sos />
            <span>{t('monitor:legend.rolesHint')}</span>
          </Space>
        }
      />
      <DataTable<DeviceRole>
        testId="role-table"
        queryKey={DEVICE_KEYS.roles}
        defaultPageSize={LIMITS.deviceRoles}
        fetch={() => call('/DeviceRole/List', {})}
        rowKey="RoleId"
        toolbar={
          <>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => (full ? message.warning(t('messages:device.roleLimit', { max: LIMITS.deviceRoles })) : setEditing({ role: null }))}
              data-testid="add-role"
            >
              {t('devices:roles.add')}
            </Button>
            {counted ? <Typography.Text type="secondary">{t('devices:roles.count', { count, max: LIMITS.deviceRoles })}</Typography.Text> : null}
          </>
        }
        columns={[
          { key: 'Name', title: t('devices:roles.name'), dataIndex: 'Name', onCell: userDataCell },
          { key: 'Description', title: t('devices:roles.description'), dataIndex: 'Description', onCell: userDataCell },
          {
            key: 'Color',
            title: t('devices:roles.color'),
            render: (_, r) => (
              <Space size={6} data-testid={`role-swatch-${r.Name}`}>
                <span style={{ display: 'inline-block', width: 28, height: 14, borderRadius: 3, background: ROLE_HEX[r.Color] }} />
                {t(`devices:colors.${r.Color}`)}
              </Space>
            ),
          },
          {
            key: 'Shape',
            title: t('devices:roles.shape'),
            render: (_, r) => (
              <Space size={6}>
                <RoleSwatch color={r.Color} shape={r.Shape} size={16} />
                {t(`devices:shapes.${r.Shape}`)}
              </Space>
            ),
          },
          { key: 'DeviceCount', title: t('devices:roles.deviceCount'), dataIndex: 'DeviceCount', width: 110 },
          { key: 'CreatedAt', title: t('devices:roles.createdAt'), render: (_, r) => formatDateTime(r.CreatedAt), width: 170 },
          {
            key: 'actions',
            title: t('devices:actions'),
            width: 260,
            render: (_, r) => (
              <Space size={0}>
                <Button type="link" size="small" icon={<UsergroupAddOutlined />} onClick={() => setAssigning(r)}>
                  {t('devices:roles.assign')}
                </Button>
                <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing({ role: r })}>
                  {t('devices:action.edit')}
                </Button>
                <Popconfirm title={t('devices:roles.confirmDelete', { name: r.Name })} onConfirm={() => remove(r)}>
                  <Button type="link" size="small" danger icon={<DeleteOutlined />}>
                    {t('devices:action.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <RoleDialog open={editing !== null} role={editing?.role ?? null} onClose={() => setEditing(null)} />
      <AssignDevicesDialog role={assigning} onClose={() => setAssigning(null)} />
    </Card>
  );
}
