// Master-slave binding (/position/bindBeacon, SPEC §3): a watch (the master) and the tags it should
// keep near; each slave's last hearing and whether it is separated, asked again every few seconds.
import { useEffect, useState } from 'react';
import { PositionText } from '../../components/PositionText';
import { Button, Form, Input, InputNumber, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { masterSlave as schemas } from '@wt/contract';
import { shownTime } from '../../session/time';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction, type ListQuery } from '../../patterns';
import { USER_DATA, userDataCell } from '../../i18n/texts';
import { SearchSelect } from './SearchSelect';
import { useCan } from '../../access/can';

type Binding = schemas.Binding;
type Values = z.input<typeof schemas.updateBindingRequest>;
const INVALIDATE = [['bindings']];
const REFRESH_MS = 5000;

function MasterPicker({ value, onChange }: { value?: string; onChange?: (v: string) => void }) {
  const { t } = useTranslation();
  return (
    <SearchSelect<string>
      queryKey={['bindings', 'candidates']}
      search={async (text) =>
        (await call('/Bluetooth/bindDeviceListByUserId', { Keyword: text || undefined })).Items.map((d) => ({
          value: d.Imei,
          label: `${d.Name || d.Imei} (${d.Imei})${d.Bound ? ` · ${t('bind:bound')}` : ''}`,
        }))
      }
      value={value}
      onChange={onChange}
      placeholder={t('bind:field.masterHint')}
      testId="bind-master"
    />
  );
}

function BindingDialog({ binding, open, onClose }: { binding: Binding | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<Values>
      open={open}
      width={640}
      title={t(binding ? 'bind:edit' : 'bind:add')}
      schema={binding ? schemas.updateBindingRequest : schemas.addBindingRequest}
      initial={
        binding
          ? { BindingId: binding.BindingId, Imei: binding.Imei, Slaves: binding.Slaves.map((s) => ({ Mac: s.Mac, Name: s.Name })), TimeoutSeconds: binding.TimeoutSeconds }
          : { Slaves: [{ Mac: '', Name: '' }] }
      }
      submit={(v) => call(binding ? '/Bluetooth/updateMasterSlaveInfo' : '/Bluetooth/addBTMasterSlaveInfo', v)}
      invalidate={INVALIDATE}
      onClose={onClose}
      testId="bind-form"
      fields={
        <>
          <Form.Item name="Imei" label={t('bind:field.master')} required>
            <MasterPicker />
          </Form.Item>
          <Form.Item label={t('bind:field.slaves')} required>
            <Form.List name="Slaves">
              {(items, { add, remove }) => (
                <Space orientation="vertical" style={{ width: '100%' }}>
                  {items.map((item, i) => (
                    <Space key={item.key} align="start">
                      <Form.Item name={[item.name, 'Mac']} style={{ marginBottom: 0 }}>
                        <Input placeholder="AC:23:3F:A0:00:01" maxLength={17} style={{ width: 200 }} data-testid={`bind-slave-mac-${i}`} />
                      </Form.Item>
                      <Form.Item name={[item.name, 'Name']} style={{ marginBottom: 0 }}>
                        <Input placeholder={t('bind:field.slaveName')} maxLength={64} style={{ width: 200 }} data-testid={`bind-slave-name-${i}`} />
                      </Form.Item>
                      <Button type="text" icon={<MinusCircleOutlined />} disabled={items.length === 1} onClick={() => remove(item.name)} aria-label={t('bind:removeSlave')} />
                    </Space>
                  ))}
                  <Button type="dashed" icon={<PlusOutlined />} disabled={items.length >= schemas.MAX_SLAVES} onClick={() => add({ Mac: '', Name: '' })} data-testid="bind-add-slave">
                    {t('bind:addSlave')}
                  </Button>
                </Space>
              )}
            </Form.List>
          </Form.Item>
          <Form.Item name="TimeoutSeconds" label={t('bind:field.timeout')} extra={t('bind:field.timeoutExtra')}>
            <InputNumber min={schemas.SLAVE_TIMEOUT_MIN} max={schemas.SLAVE_TIMEOUT_MAX} style={{ width: 200 }} addonAfter={t('bind:seconds')} data-testid="bind-timeout" />
          </Form.Item>
        </>
      }
    />
  );
}

export default function BindBeaconPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('beacon.edit');
  const [editing, setEditing] = useState<{ binding: Binding | null } | null>(null);
  const qc = useQueryClient();
  // Separations come and go: the list is asked again every few seconds.
  useEffect(() => {
    const timer = setInterval(() => void qc.invalidateQueries({ queryKey: ['bindings', 'list'] }), REFRESH_MS);
    return () => clearInterval(timer);
  }, [qc]);
  return (
    <ListPage<Binding, { Keyword?: string }>
      testId="bind-table"
      queryKey={['bindings', 'list']}
      fetch={(q: ListQuery<{ Keyword?: string }>) => call('/Bluetooth/allMasterSlaveList', q)}
      rowKey="BindingId"
      scrollX={1100}
      search={[{ name: 'Keyword', type: 'text', label: t('bind:search'), placeholder: t('bind:searchHint'), width: 240 }]}
      toolbar={[addAction(t('bind:add'), () => setEditing({ binding: null }), { testId: 'add-binding', visible: mayEdit })]}
      actionsColumn={{ title: t('bind:actions'), width: 170, fixed: 'right' }}
      rowActions={(r) => [
        { key: 'edit', visible: mayEdit, label: t('bind:editShort'), icon: <EditOutlined />, onClick: () => setEditing({ binding: r }) },
        {
          key: 'delete',
          visible: mayEdit,
          label: t('bind:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          confirm: t('bind:confirmDelete', { name: r.MasterName || r.Imei }),
          run: () => call('/Bluetooth/updateMasterSlaveDel', { BindingIds: [r.BindingId] }),
          invalidate: INVALIDATE,
        },
      ]}
      columns={[
        {
          key: 'Master',
          title: t('bind:field.master'),
          width: 200,
          render: (_, r) => (
            <Space orientation="vertical" size={0}>
              <Typography.Text {...USER_DATA}>{r.MasterName || r.Imei}</Typography.Text>
              <Typography.Text type="secondary">{r.Imei}</Typography.Text>
            </Space>
          ),
        },
        {
          key: 'Slaves',
          title: t('bind:field.slaves'),
          render: (_, r) => (
            <Space wrap size={4} data-testid={`bind-slaves-${r.Imei}`}>
              {r.Slaves.map((s) => (
                <Tooltip key={s.Mac} title={s.LastHeard ? t('bind:lastHeard', { time: shownTime(s.LastHeard) }) : t('bind:neverHeard')}>
                  <Tag color={s.Separated ? 'red' : s.LastHeard ? 'green' : 'default'} data-testid={`slave-${s.Mac}`}>
                    <span {...USER_DATA}>{s.Name || s.Mac}</span> · {t(s.Separated ? 'bind:separated' : s.LastHeard ? 'bind:near' : 'bind:waiting')}
                  </Tag>
                </Tooltip>
              ))}
            </Space>
          ),
        },
        { key: 'Timeout', title: t('bind:field.timeout'), width: 110, render: (_, r) => `${r.TimeoutSeconds} ${t('bind:seconds')}` },
        {
          key: 'Position',
          title: t('bind:field.position'),
          width: 190,
          render: (_, r) => <PositionText lat={r.Lat} lon={r.Lon} accuracy={r.Accuracy} />,
        },
        { key: 'Account', title: t('bind:field.account'), dataIndex: 'AccountName', width: 120, onCell: userDataCell },
        { key: 'UpdatedAt', title: t('bind:field.updatedAt'), width: 170, render: (_, r) => shownTime(r.UpdatedAt) },
      ]}
    >
      <BindingDialog open={editing !== null} binding={editing?.binding ?? null} onClose={() => setEditing(null)} />
    </ListPage>
  );
}
