// Device roles (/devices/roles): how devices are drawn on the map (colour and shape). Name and
// colour required, at most 30 per account (SPEC §5, §8); devices are assigned to a role here.
import { useState } from 'react';
import { Alert, App, Input, Radio, Select, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS, device, role as roleSchemas } from '@wt/contract';
import { shownTime } from '../../session/time';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { userDataCell } from '../../i18n/texts';
import { batchOutcome } from './deviceForms';
import { useBatchFeedback } from './dialogs/batchFeedback';
import { DEVICE_KEYS } from './queries';
import { ROLE_HEX, RoleSwatch } from './parts';
import { MarkerSwatch } from '../home/monitor/MapLegend';
import { useCan } from '../../access/can';

type DeviceRole = z.infer<typeof roleSchemas.roleSchema>;
type RoleValues = z.input<typeof roleSchemas.saveRoleRequest>;
type AssignValues = z.input<typeof roleSchemas.assignRoleRequest>;
/** A role change shows in the device lists (their role colours) and the counts: all of them are asked again. */
const INVALIDATE = [['devices']];

function RoleDialog({
  role,
  open,
  onClose,
}: {
  role: DeviceRole | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <FormDialog<RoleValues>
      open={open}
      title={t(role ? 'devices:roles.edit' : 'devices:roles.add')}
      schema={roleSchemas.saveRoleRequest}
      initial={
        role
          ? {
              RoleId: role.RoleId,
              Name: role.Name,
              Description: role.Description,
              Color: role.Color,
              Shape: role.Shape,
            }
          : { Name: '', Description: '', Shape: 'circle' }
      }
      submit={(v) => call('/DeviceRole/Save', v)}
      successMessage={t('messages:device.saved')}
      invalidate={INVALIDATE}
      onClose={onClose}
      testId="role-form"
      fields={[
        { name: 'Name', label: t('devices:roles.name'), required: true, input: <Input maxLength={64} /> },
        {
          name: 'Description',
          label: t('devices:roles.description'),
          input: <Input.TextArea rows={2} maxLength={256} />,
        },
        {
          name: 'Color',
          label: t('devices:roles.color'),
          required: true,
          input: (
            <Radio.Group>
              {device.ROLE_COLORS.map((c) => (
                <Radio key={c} value={c} data-testid={`role-color-${c}`}>
                  <Space size={4}>
                    <span
                      style={{
                        display: 'inline-block',
                        width: 14,
                        height: 14,
                        borderRadius: 3,
                        background: ROLE_HEX[c],
                        verticalAlign: 'middle',
                      }}
                    />
                    {t(`devices:colors.${c}`)}
                  </Space>
                </Radio>
              ))}
            </Radio.Group>
          ),
        },
        {
          name: 'Shape',
          label: t('devices:roles.shape'),
          input: (
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
          ),
        },
      ]}
    />
  );
}

/** Devices picked by IMEI or name, searched on the server. */
function DevicePicker({ value, onChange }: { value?: string[]; onChange?: (imeis: string[]) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const found = useQuery({
    queryKey: ['devices', 'pick', search],
    queryFn: () =>
      call(
        '/Device/devicesByUserId',
        /^\d+$/.test(search)
          ? { PageNo: 1, PageCount: 20, Imei: search }
          : { PageNo: 1, PageCount: 20, Name: search || undefined },
      ),
  });
  return (
    <Select
      mode="multiple"
      style={{ width: '100%' }}
      placeholder={t('devices:roles.pickDevices')}
      value={value}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={found.isFetching}
      options={(found.data?.Items ?? []).map((d) => ({ value: d.Imei, label: `${d.Imei} ${d.Name}` }))}
      data-testid="role-devices"
    />
  );
}

/** Pick devices and give them the role; devices refused are listed with the reason. */
function AssignDevicesDialog({ role, onClose }: { role: DeviceRole | null; onClose: () => void }) {
  const { t } = useTranslation();
  const feedback = useBatchFeedback();
  return (
    <FormDialog<AssignValues, Awaited<ReturnType<typeof assign>>>
      open={!!role}
      title={t('devices:roles.assignTitle', { name: role?.Name ?? '' })}
      schema={roleSchemas.assignRoleRequest}
      initial={{ RoleId: role?.RoleId, Imeis: [] }}
      submit={assign}
      successMessage={false}
      onDone={(r) => feedback(batchOutcome(r), 'devices:assign.done')}
      invalidate={INVALIDATE}
      onClose={onClose}
      fields={[{ name: 'Imeis', input: <DevicePicker /> }]}
    />
  );
}

const assign = (v: AssignValues) => call('/DeviceRole/AssignDevices', v);

export default function DeviceRolesPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('device.role');
  const { message } = App.useApp();
  const [editing, setEditing] = useState<{ role: DeviceRole | null } | null>(null);
  const [assigning, setAssigning] = useState<DeviceRole | null>(null);

  return (
    <ListPage<DeviceRole>
      testId="role-table"
      queryKey={DEVICE_KEYS.roles}
      // An account has at most thirty roles: all of them at once, on one page.
      paging="client"
      defaultPageSize={LIMITS.deviceRoles}
      fetch={() => call('/DeviceRole/List', {})}
      rowKey="RoleId"
      header={
        // A role may be red, and SOS is red too: on the map only SOS has the ring.
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
      }
      toolbar={({ data }) => {
        const count = data?.Total ?? 0;
        return [
          addAction(
            t('devices:roles.add'),
            () =>
              count >= LIMITS.deviceRoles
                ? void message.warning(t('messages:device.roleLimit', { max: LIMITS.deviceRoles }))
                : setEditing({ role: null }),
            { testId: 'add-role', visible: mayEdit },
          ),
          data ? (
            <Typography.Text key="count" type="secondary">
              {t('devices:roles.count', { count, max: LIMITS.deviceRoles })}
            </Typography.Text>
          ) : null,
        ];
      }}
      actionsColumn={{ title: t('devices:actions'), width: 260 }}
      rowActions={(r) => [
        {
          key: 'assign',
          visible: mayEdit,
          label: t('devices:roles.assign'),
          icon: <UsergroupAddOutlined />,
          onClick: () => setAssigning(r),
        },
        {
          key: 'edit',
          visible: mayEdit,
          label: t('devices:action.edit'),
          icon: <EditOutlined />,
          onClick: () => setEditing({ role: r }),
        },
        {
          key: 'delete',
          visible: mayEdit,
          label: t('devices:action.delete'),
          icon: <DeleteOutlined />,
          danger: true,
          confirm: t('devices:roles.confirmDelete', { name: r.Name }),
          run: () => call('/DeviceRole/Delete', { RoleIds: [r.RoleId] }),
          success: t('messages:device.deleted'),
          invalidate: INVALIDATE,
        },
      ]}
      columns={[
        { key: 'Name', title: t('devices:roles.name'), dataIndex: 'Name', onCell: userDataCell },
        {
          key: 'Description',
          title: t('devices:roles.description'),
          dataIndex: 'Description',
          onCell: userDataCell,
        },
        {
          key: 'Color',
          title: t('devices:roles.color'),
          render: (_, r) => (
            <Space size={6} data-testid={`role-swatch-${r.Name}`}>
              <span
                style={{
                  display: 'inline-block',
                  width: 28,
                  height: 14,
                  borderRadius: 3,
                  background: ROLE_HEX[r.Color],
                }}
              />
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
        {
          key: 'CreatedAt',
          title: t('devices:roles.createdAt'),
          render: (_, r) => shownTime(r.CreatedAt),
          width: 170,
        },
      ]}
    >
      <RoleDialog open={editing !== null} role={editing?.role ?? null} onClose={() => setEditing(null)} />
      <AssignDevicesDialog role={assigning} onClose={() => setAssigning(null)} />
    </ListPage>
  );
}
