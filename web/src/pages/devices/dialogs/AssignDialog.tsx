// Put the selected devices into a group (creating it on the spot if needed) or give them a role;
// choosing none takes them out.
import { useState, type ReactNode } from 'react';
import { App, Button, Divider, Form, Input, Modal, Select, Space } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../i18n/errors';
import { batchOutcome } from '../deviceForms';
import { invalidateDevices, useDictionary } from '../queries';
import { useBatchFeedback } from './batchFeedback';
import { RoleSwatch } from '../parts';

export function AssignDialog({ kind, imeis, onClose }: { kind: 'group' | 'role' | null; imeis: string[]; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dict = useDictionary();
  const qc = useQueryClient();
  const feedback = useBatchFeedback();
  const [target, setTarget] = useState<number | null>(null);
  const [newGroup, setNewGroup] = useState('');
  const [busy, setBusy] = useState(false);

  const addGroup = async () => {
    try {
      const r = await call('/group/AddGroup', { Name: newGroup });
      setNewGroup('');
      await qc.invalidateQueries({ queryKey: ['devices', 'dictionary'] });
      setTarget(r.Item.GroupId);
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const submit = async () => {
    setBusy(true);
    try {
      const r =
        kind === 'group'
          ? await call('/group/UpdateDeviceGroupIDByImeis', { Imeis: imeis, GroupId: target })
          : await call('/DeviceRole/AssignDevices', { Imeis: imeis, RoleId: target });
      await invalidateDevices(qc);
      feedback(batchOutcome(r), 'devices:assign.done');
      setTarget(null);
      onClose();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const options: { value: number; label: ReactNode }[] =
    kind === 'group'
      ? (dict.data?.Groups ?? []).map((g) => ({ value: g.GroupId, label: g.Name }))
      : (dict.data?.Roles ?? []).map((r) => ({
          value: r.RoleId,
          label: (
            <Space size={6}>
              <RoleSwatch color={r.Color} shape={r.Shape} />
              {r.Name}
            </Space>
          ),
        }));

  return (
    <Modal
      open={kind !== null}
      title={kind ? t(`devices:assign.${kind}Title`) : ''}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      destroyOnHidden
    >
      <p>{t('devices:batch.selected', { count: imeis.length })}</p>
      <Form layout="vertical">
        <Form.Item label={t(kind === 'group' ? 'devices:field.group' : 'devices:field.role')} extra={t('devices:assign.noneHint')}>
          <Select
            allowClear
            value={target ?? undefined}
            onChange={(v) => setTarget(v ?? null)}
            options={options}
            data-testid="assign-select"
            popupRender={
              kind === 'group'
                ? (menu) => (
                    <>
                      {menu}
                      <Divider style={{ margin: '8px 0' }} />
                      <Space style={{ padding: '0 8px 4px' }}>
                        <Input placeholder={t('devices:assign.newGroup')} value={newGroup} onChange={(e) => setNewGroup(e.target.value)} onKeyDown={(e) => e.stopPropagation()} />
                        <Button type="link" onClick={() => void addGroup()} disabled={!newGroup.trim()}>
                          {t('devices:assign.create')}
                        </Button>
                      </Space>
                    </>
                  )
                : undefined
            }
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
