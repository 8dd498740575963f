// The beacon registry (/position/beacons, and the administrator's platform-wide
// /indoorBeacons/index): both identity models in one list, added and edited by model, made valid
// or invalid, taken off their floor plan, deleted, imported from and exported to Excel.
import { useState } from 'react';
import { Input, InputNumber, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, DisconnectOutlined, DownloadOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { beacon as schemas } from '@wt/contract';
import { shownTime } from '../../../session/time';
import type { z } from 'zod';
import { call } from '../../../api/client';
import { ImportDialog, type ImportReport } from '../../../components/ImportDialog';
import { FormDialog, ListPage, addAction, type ListQuery } from '../../../patterns';
import { userDataCell } from '../../../i18n/texts';
import { downloadBase64 } from '../../../utils/download';
import { useCan } from '../../../access/can';

type Beacon = schemas.Beacon;
type UuidValues = z.input<typeof schemas.updateUuidBeaconRequest>;
type MacValues = z.input<typeof schemas.updateMacBeaconRequest>;
type Search = { Keyword?: string; Model?: 1 | 2; Type?: 1 | 2 | 3; State?: 1 | 2; Placed?: 'yes' | 'no' };

/** The search as the calls take it (the placed filter is a choice of yes or no). */
const query = ({ Placed, ...q }: ListQuery<Search>) => ({ ...q, ...(Placed ? { Placed: Placed === 'yes' } : {}) });

export const BEACON_KEYS = { list: ['beacons', 'list'] as const };
const INVALIDATE = [['beacons']];

const typeName = (t: (k: string) => string, type: number) => t(type === 2 ? 'beacons:type.uwb' : type === 3 ? 'beacons:type.aoa' : 'beacons:type.ble');

function BeaconDialog({ model, beacon, onClose }: { model: 1 | 2 | null; beacon: Beacon | null; onClose: () => void }) {
  const { t } = useTranslation();
  const uuid = model === 1;
  const common = [
    { name: 'Name', label: t('beacons:field.name'), input: <Input maxLength={64} /> },
    { name: 'Address', label: t('beacons:field.address'), input: <Input maxLength={200} /> },
    {
      name: 'Lon',
      label: t('beacons:field.lon'),
      extra: t('beacons:field.lonLatHint'),
      input: <InputNumber min={-180} max={180} step={0.000001} style={{ width: '100%' }} data-testid="beacon-lon" />,
    },
    { name: 'Lat', label: t('beacons:field.lat'), input: <InputNumber min={-90} max={90} step={0.000001} style={{ width: '100%' }} data-testid="beacon-lat" /> },
    {
      name: 'Type',
      label: t('beacons:field.type'),
      required: true,
      input: <Select options={[1, 2].map((v) => ({ value: v, label: typeName(t, v) }))} />,
    },
    {
      name: 'State',
      label: t('beacons:field.state'),
      input: <Select options={[1, 2].map((v) => ({ value: v, label: t(`beacons:state.${v}`) }))} />,
    },
  ];
  const initial = beacon
    ? { BeaconId: beacon.BeaconId, Code: beacon.Code ?? undefined, Major: beacon.Major ?? undefined, Minor: beacon.Minor ?? undefined, Mac: beacon.Mac ?? '', Name: beacon.Name, Address: beacon.Address, Lon: beacon.Lon, Lat: beacon.Lat, Type: beacon.Type, State: beacon.State }
    : { Name: '', Address: '', Type: 1, State: 1, Mac: '' };
  return (
    <FormDialog<UuidValues | MacValues>
      open={model !== null}
      title={t(beacon ? 'beacons:edit' : uuid ? 'beacons:addUuid' : 'beacons:addMac')}
      schema={uuid ? (beacon ? schemas.updateUuidBeaconRequest : schemas.addUuidBeaconRequest) : beacon ? schemas.updateMacBeaconRequest : schemas.addMacBeaconRequest}
      initial={initial}
      transform={(v) => ({ ...v, Lon: v.Lon ?? null, Lat: v.Lat ?? null })}
      submit={(v) =>
        uuid
          ? call(beacon ? '/Bluetooth/updateBeaconInfo' : '/Bluetooth/addBTDeviceInfo', v as UuidValues & { BeaconId: number })
          : call(beacon ? '/Bluetooth/updateBeaconInfoMac' : '/Bluetooth/addBTDeviceInfoMac', v as MacValues & { BeaconId: number })
      }
      invalidate={INVALIDATE}
      onClose={onClose}
      testId="beacon-form"
      fields={[
        ...(uuid
          ? [
              { name: 'Code', label: t('beacons:field.code'), required: true, extra: t('beacons:field.codeHint'), input: <Input maxLength={64} data-testid="beacon-code" /> },
              { name: 'Major', label: 'Major', required: true, input: <InputNumber min={0} max={65535} style={{ width: '100%' }} data-testid="beacon-major" /> },
              { name: 'Minor', label: 'Minor', required: true, input: <InputNumber min={0} max={65535} style={{ width: '100%' }} data-testid="beacon-minor" /> },
              { name: 'Mac', label: t('beacons:field.macOptional'), input: <Input maxLength={17} placeholder="AC:23:3F:A0:00:01" /> },
            ]
          : [{ name: 'Mac', label: t('beacons:field.mac'), required: true, input: <Input maxLength={17} placeholder="AC:23:3F:A0:00:01" data-testid="beacon-mac" /> }]),
        ...common,
      ]}
    />
  );
}

function ImportBeaconsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <ImportDialog
      open={open}
      title={t('beacons:import.title')}
      onClose={onClose}
      hint={t('beacons:import.hint')}
      onTemplate={async () => {
        const r = await call('/Beacon/ImportTemplate', {});
        downloadBase64(r.FileName, r.Content);
      }}
      onImport={async (Content, FileName): Promise<ImportReport> => {
        const r = await call('/Beacon/Import', { Content, FileName });
        if (r.Imported) await qc.invalidateQueries({ queryKey: ['beacons'] });
        return {
          total: r.Rows,
          imported: r.Imported ? r.Uuid + r.Mac : 0,
          refused: r.Failed.map((f) => ({ row: f.Row, label: f.Value || '—', column: f.Column, reason: f.Message, params: { column: f.Column, ...(f.Params ?? {}) } })),
        };
      }}
    />
  );
}

export function BeaconRegistry({ platformWide = false }: { platformWide?: boolean }) {
  const { t } = useTranslation();
  const mayEdit = useCan()('beacon.edit');
  const [editing, setEditing] = useState<{ model: 1 | 2; beacon: Beacon | null } | null>(null);
  const [importing, setImporting] = useState(false);

  return (
    <ListPage<Beacon, Search>
      testId="beacon-table"
      queryKey={[...BEACON_KEYS.list, platformWide]}
      fetch={(q: ListQuery<Search>) => call('/Bluetooth/allBTDeviceInfo', query(q))}
      rowKey="BeaconId"
      scrollX={1300}
      search={[
        { name: 'Keyword', type: 'text', label: t('beacons:search.keyword'), placeholder: t('beacons:search.keywordHint'), width: 240 },
        { name: 'Model', type: 'select', label: t('beacons:field.model'), options: [1, 2].map((v) => ({ value: v, label: t(`beacons:model.${v}`) })), width: 140 },
        { name: 'Type', type: 'select', label: t('beacons:field.type'), options: [1, 2, 3].map((v) => ({ value: v, label: typeName(t, v) })), width: 140 },
        { name: 'State', type: 'select', label: t('beacons:field.state'), options: [1, 2].map((v) => ({ value: v, label: t(`beacons:state.${v}`) })), width: 120 },
        {
          name: 'Placed',
          type: 'select',
          label: t('beacons:field.placed'),
          options: [
            { value: 'yes', label: t('beacons:placed.yes') },
            { value: 'no', label: t('beacons:placed.no') },
          ],
          width: 140,
        },
      ]}
      toolbar={({ search, data }) => [
        addAction(t('beacons:addUuid'), () => setEditing({ model: 1, beacon: null }), { testId: 'add-uuid-beacon', visible: mayEdit }),
        addAction(t('beacons:addMac'), () => setEditing({ model: 2, beacon: null }), { testId: 'add-mac-beacon', visible: mayEdit }),
        { key: 'import', label: t('beacons:import.button'), icon: <UploadOutlined />, visible: mayEdit, testId: 'import-beacons', onClick: () => setImporting(true) },
        {
          key: 'export',
          label: t('beacons:export'),
          icon: <DownloadOutlined />,
          testId: 'export-beacons',
          disabled: !data?.Total,
          run: async () => {
            const r = await call('/Beacon/Export', query(search as ListQuery<Search>));
            downloadBase64(r.FileName, r.Content);
            return r;
          },
          success: false,
        },
        { key: 'valid', label: t('beacons:makeValid'), batch: true, visible: mayEdit, run: (ctx) => call('/Bluetooth/updateBTBindStatus', { BeaconIds: ctx.selectedKeys as number[], State: 1 }), invalidate: INVALIDATE },
        { key: 'invalid', label: t('beacons:makeInvalid'), batch: true, visible: mayEdit, run: (ctx) => call('/Bluetooth/updateBTBindStatus', { BeaconIds: ctx.selectedKeys as number[], State: 2 }), invalidate: INVALIDATE },
        {
          key: 'delete',
          label: t('beacons:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          batch: true,
          visible: mayEdit,
          confirm: (ctx) => t('beacons:confirmDeleteMany', { count: ctx.selectedKeys.length }),
          run: (ctx) => call('/Bluetooth/batchDelBTBindStatus', { BeaconIds: ctx.selectedKeys as number[] }),
          invalidate: INVALIDATE,
        },
      ]}
      selectable={mayEdit}
      actionsColumn={{ title: t('beacons:actions'), width: 290, fixed: 'right' }}
      rowActions={(r) => [
        { key: 'edit', visible: mayEdit, label: t('beacons:editShort'), icon: <EditOutlined />, onClick: () => setEditing({ model: r.Model === 2 ? 2 : 1, beacon: r }) },
        {
          key: 'unplace',
          visible: mayEdit && r.FloorId !== null,
          label: t('beacons:unplace'),
          icon: <DisconnectOutlined />,
          confirm: t('beacons:confirmUnplace', { floor: r.FloorName ?? '' }),
          run: () => call('/Bluetooth/removeInnerBT', { BeaconIds: [r.BeaconId] }),
          invalidate: INVALIDATE,
        },
        {
          key: 'delete',
          visible: mayEdit,
          label: t('beacons:deleteShort'),
          icon: <DeleteOutlined />,
          danger: true,
          confirm: t('beacons:confirmDelete', { name: r.Mac ?? r.Code ?? '' }),
          run: () => call(r.Model === 2 ? '/Bluetooth/removeBTMac' : '/Bluetooth/removeBT', { BeaconIds: [r.BeaconId] }),
          invalidate: INVALIDATE,
        },
      ]}
      columns={[
        {
          key: 'Identity',
          title: t('beacons:field.identity'),
          width: 330,
          render: (_, r) =>
            r.Model === 2 ? (
              <Typography.Text code>{r.Mac}</Typography.Text>
            ) : (
              <Space orientation="vertical" size={0}>
                <Typography.Text code>{`${r.Code}  ${r.Major}/${r.Minor}`}</Typography.Text>
                {r.Mac ? <Typography.Text type="secondary">{r.Mac}</Typography.Text> : null}
              </Space>
            ),
        },
        { key: 'Model', title: t('beacons:field.model'), width: 110, render: (_, r) => <Tag>{t(`beacons:model.${r.Model}`)}</Tag> },
        { key: 'Name', title: t('beacons:field.name'), dataIndex: 'Name', onCell: userDataCell, width: 130 },
        { key: 'Type', title: t('beacons:field.type'), width: 110, render: (_, r) => typeName(t, r.Type) },
        { key: 'State', title: t('beacons:field.state'), width: 90, render: (_, r) => <Tag color={r.State === 1 ? 'green' : 'default'}>{t(`beacons:state.${r.State}`)}</Tag> },
        { key: 'Address', title: t('beacons:field.address'), dataIndex: 'Address', onCell: userDataCell, width: 160 },
        { key: 'LonLat', title: t('beacons:field.lonLat'), width: 170, render: (_, r) => (r.Lon !== null && r.Lat !== null ? `${r.Lon.toFixed(6)}, ${r.Lat.toFixed(6)}` : '—') },
        {
          key: 'Placed',
          title: t('beacons:field.placed'),
          width: 170,
          onCell: userDataCell,
          render: (_, r) => (r.FloorId !== null ? `${r.SceneName ?? ''} / ${r.FloorName ?? ''}` : t('beacons:placed.no')),
        },
        ...(platformWide ? [{ key: 'Account', title: t('beacons:field.account'), dataIndex: 'AccountName', onCell: userDataCell, width: 120 }] : []),
        { key: 'CreatedAt', title: t('beacons:field.createdAt'), width: 170, render: (_: unknown, r: Beacon) => shownTime(r.CreatedAt) },
      ]}
    >
      <BeaconDialog model={editing?.model ?? null} beacon={editing?.beacon ?? null} onClose={() => setEditing(null)} />
      <ImportBeaconsDialog open={importing} onClose={() => setImporting(false)} />
    </ListPage>
  );
}
