// Asset inventory (/position/assetInventory): tagged assets (wheelchairs, pumps, beds, tools) of the
// subtree where they are now (location, floor, last seen, moving or still, missing when not seen
// for the server's ASSET_MISSING_MINUTES) with the counts per location; a stock-take of a location
// (expected against seen now, missing and extra), exported as an .xlsx, and the past stock-takes.
import { useState } from 'react';
import { Alert, Button, Form, Modal, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import { AuditOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, HistoryOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { asset as schemas } from '@wt/contract';
import { shownTime } from '../../session/time';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction, useAction, type ListQuery } from '../../patterns';
import { userDataCell, userDataOptions } from '../../i18n/texts';
import { useCan } from '../../access/can';
import { downloadBase64 } from '../../utils/download';
import { DeviceIdPicker } from './SearchSelect';

type Asset = schemas.Asset;
type StockTake = schemas.StockTake;
type Search = { Keyword?: string; Category?: number; LocationId?: number; State?: number };
type Values = z.input<typeof schemas.saveAssetsRequest>;
const KEYS = { list: ['assets', 'list'] as const, takes: ['assets', 'stockTakes'] as const };
const INVALIDATE = [['assets']];
const RESULT_COLOR: Record<number, string> = { 1: 'green', 2: 'red', 3: 'orange' };

function useLocations() {
  return useQuery({ queryKey: ['locations', 'all'], queryFn: () => call('/Bluetooth/allBeaconLocationList', { PageNo: 1, PageCount: 1000 }) });
}

function LocationSelect(props: { value?: number | null; onChange?: (v: number | null) => void; testId: string; allowClear?: boolean }) {
  const { t } = useTranslation();
  const all = useLocations();
  return (
    <Select<number>
      style={{ minWidth: 240 }}
      value={props.value ?? undefined}
      onChange={(v) => props.onChange?.(v ?? null)}
      allowClear={props.allowClear}
      loading={all.isLoading}
      placeholder={t('assets:pickLocation')}
      options={(all.data?.Items ?? []).map((l) => ({ value: l.LocationId, label: l.Name }))}
      showSearch={{ optionFilterProp: 'label' }}
      {...userDataOptions}
      data-testid={props.testId}
    />
  );
}

function AssetDialog({ asset, open, onClose }: { asset: Asset | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<Values>
      open={open}
      title={t(asset ? 'assets:edit' : 'assets:add')}
      schema={schemas.saveAssetsRequest}
      initial={asset ? { DeviceIds: [asset.DeviceId], Category: asset.Category, ExpectedLocationId: asset.ExpectedLocationId } : { DeviceIds: [], ExpectedLocationId: null }}
      submit={(v) => call('/Asset/Save', v)}
      invalidate={INVALIDATE}
      onClose={onClose}
      testId="asset-form"
      fields={
        <>
          <Form.Item name="DeviceIds" label={t('assets:field.devices')} required>
            {asset ? <Typography.Text>{`${asset.Name || asset.Imei} (${asset.Imei})`}</Typography.Text> : <DeviceIdPicker placeholder={t('assets:field.devicesHint')} testId="asset-devices" />}
          </Form.Item>
          <Form.Item name="Category" label={t('assets:field.category')} required>
            <Select options={schemas.ASSET_CATEGORIES.map((c) => ({ value: c, label: t(`messages:asset.category.${c}`) }))} data-testid="asset-category" />
          </Form.Item>
          <Form.Item name="ExpectedLocationId" label={t('assets:field.expected')} extra={t('assets:field.expectedExtra')}>
            <LocationSelect allowClear testId="asset-expected" />
          </Form.Item>
        </>
      }
    />
  );
}

function exportTake(id: number) {
  return call('/Asset/StockTakeExport', { StockTakeId: id }).then((r) => downloadBase64(r.FileName, r.Content));
}

function StockTakeLines({ take }: { take: StockTake }) {
  const { t } = useTranslation();
  return (
    <Table
      size="small"
      rowKey="DeviceId"
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      dataSource={take.Lines}
      data-testid="stocktake-lines"
      columns={[
        { key: 'Result', title: t('assets:field.result'), width: 100, render: (_, l) => <Tag color={RESULT_COLOR[l.Result]}>{t(`messages:asset.result.${l.Result}`)}</Tag> },
        { key: 'Imei', title: 'IMEI', dataIndex: 'Imei', width: 170 },
        { key: 'Name', title: t('assets:field.name'), dataIndex: 'Name', onCell: userDataCell },
        { key: 'Category', title: t('assets:field.category'), width: 120, render: (_, l) => t(`messages:asset.category.${l.Category}`) },
      ]}
    />
  );
}

function StockTakeSummary({ take }: { take: StockTake }) {
  const { t } = useTranslation();
  return (
    <Space size={32} wrap data-testid="stocktake-summary">
      <Statistic title={t('assets:expected')} value={take.Expected} />
      <Statistic title={t('assets:seen')} value={take.Seen} />
      <Statistic title={t('messages:asset.result.2')} value={take.Missing} styles={{ content: { color: take.Missing ? '#cf1322' : undefined } }} />
      <Statistic title={t('messages:asset.result.3')} value={take.Extra} styles={{ content: { color: take.Extra ? '#d46b08' : undefined } }} />
    </Space>
  );
}

function StockTakeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [locationId, setLocationId] = useState<number | null>(null);
  const [take, setTake] = useState<StockTake | null>(null);
  const run = useAction((id: number) => call('/Asset/StockTake', { LocationId: id }), { invalidate: INVALIDATE, onDone: (r) => setTake(r.Item), success: false });
  const download = useAction(exportTake, { success: false });
  return (
    <Modal open={open} width={760} title={t('assets:stockTake')} onCancel={onClose} footer={null} destroyOnHidden afterClose={() => setTake(null)}>
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Space wrap>
          <LocationSelect value={locationId} onChange={setLocationId} testId="stocktake-location" />
          <Button type="primary" icon={<AuditOutlined />} disabled={!locationId} loading={run.busy} onClick={() => void run.run(locationId!)} data-testid="stocktake-run">
            {t('assets:runStockTake')}
          </Button>
          {take && (
            <Button icon={<DownloadOutlined />} loading={download.busy} onClick={() => void download.run(take.StockTakeId)} data-testid="stocktake-export">
              {t('assets:export')}
            </Button>
          )}
        </Space>
        {take && (
          <>
            <Typography.Text type="secondary">{t('assets:takenBy', { user: take.UserName, time: shownTime(take.Time) })}</Typography.Text>
            <StockTakeSummary take={take} />
            <StockTakeLines take={take} />
          </>
        )}
      </Space>
    </Modal>
  );
}

function HistoryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<StockTake | null>(null);
  return (
    <Modal open={open} width={900} title={t('assets:history')} onCancel={onClose} footer={null} destroyOnHidden>
      <ListPage<StockTake, { LocationId?: number }>
        card={false}
        testId="stocktake-history"
        queryKey={KEYS.takes}
        fetch={(q: ListQuery<{ LocationId?: number }>) => call('/Asset/StockTakes', q)}
        rowKey="StockTakeId"
        defaultPageSize={10}
        actionsColumn={{ title: t('assets:actions'), width: 170 }}
        rowActions={(r) => [
          { key: 'lines', label: t('assets:lines'), onClick: () => setShown(r) },
          { key: 'export', label: t('assets:export'), icon: <DownloadOutlined />, run: () => exportTake(r.StockTakeId) },
        ]}
        columns={[
          { key: 'Time', title: t('assets:field.time'), width: 170, render: (_, r) => shownTime(r.Time) },
          { key: 'LocationName', title: t('messages:asset.column.location'), dataIndex: 'LocationName', onCell: userDataCell },
          { key: 'UserName', title: t('assets:field.takenBy'), dataIndex: 'UserName', onCell: userDataCell, width: 120 },
          { key: 'Expected', title: t('assets:expected'), dataIndex: 'Expected', width: 80 },
          { key: 'Missing', title: t('messages:asset.result.2'), dataIndex: 'Missing', width: 80 },
          { key: 'Extra', title: t('messages:asset.result.3'), dataIndex: 'Extra', width: 80 },
        ]}
      />
      <Modal open={!!shown} width={760} title={shown ? `${shown.LocationName} ${shownTime(shown.Time)}` : ''} onCancel={() => setShown(null)} footer={null}>
        {shown && (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <StockTakeSummary take={shown} />
            <StockTakeLines take={shown} />
          </Space>
        )}
      </Modal>
    </Modal>
  );
}

export default function AssetInventoryPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('beacon.edit');
  const locations = useLocations();
  const [editing, setEditing] = useState<{ asset: Asset | null } | null>(null);
  const [taking, setTaking] = useState(false);
  const [history, setHistory] = useState(false);
  const [summary, setSummary] = useState<Pick<z.output<typeof schemas.assetListResponse>, 'PerLocation' | 'Missing' | 'MissingMinutes'> | null>(null);
  return (
    <ListPage<Asset, Search>
      testId="asset-table"
      queryKey={KEYS.list}
      fetch={async (q: ListQuery<Search>) => {
        const r = await call('/Asset/List', q);
        setSummary({ PerLocation: r.PerLocation, Missing: r.Missing, MissingMinutes: r.MissingMinutes });
        return r;
      }}
      rowKey="DeviceId"
      scrollX={1200}
      header={
        summary && (
          <Space wrap data-testid="asset-counts">
            <Typography.Text type="secondary">{t('assets:perLocation')}</Typography.Text>
            {summary.PerLocation.length ? summary.PerLocation.map((l) => (
                  <Tag key={l.LocationId} color="blue">
                    <span data-user-data>{l.Name}</span> {l.Count}
                  </Tag>
                )) : <Typography.Text type="secondary">{t('assets:noneInside')}</Typography.Text>}
            {summary.Missing > 0 && <Alert type="warning" showIcon title={t('assets:missingCount', { count: summary.Missing, minutes: summary.MissingMinutes })} style={{ padding: '2px 8px' }} />}
          </Space>
        )
      }
      search={[
        { name: 'Keyword', type: 'text', label: t('assets:field.keyword') },
        { name: 'Category', type: 'select', label: t('assets:field.category'), options: schemas.ASSET_CATEGORIES.map((c) => ({ value: c, label: t(`messages:asset.category.${c}`) })), width: 130 },
        { name: 'LocationId', type: 'select', label: t('assets:field.location'), options: (locations.data?.Items ?? []).map((l) => ({ value: l.LocationId, label: l.Name })), loading: locations.isLoading, searchable: true, width: 180 },
        { name: 'State', type: 'select', label: t('assets:field.state'), options: schemas.ASSET_STATES.map((s) => ({ value: s, label: t(`assets:state.${s}`) })), width: 120 },
      ]}
      toolbar={[
        addAction(t('assets:add'), () => setEditing({ asset: null }), { testId: 'add-asset', visible: mayEdit }),
        { key: 'stocktake', label: t('assets:stockTake'), icon: <AuditOutlined />, visible: mayEdit, testId: 'open-stocktake', onClick: () => setTaking(true) },
        { key: 'history', label: t('assets:history'), icon: <HistoryOutlined />, testId: 'open-history', onClick: () => setHistory(true) },
      ]}
      actionsColumn={{ title: t('assets:actions'), width: 170, fixed: 'right' }}
      rowActions={(r) => [
        { key: 'edit', visible: mayEdit, label: t('assets:editShort'), icon: <EditOutlined />, onClick: () => setEditing({ asset: r }) },
        {
          key: 'delete',
          visible: mayEdit,
          label: t('assets:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          confirm: t('assets:confirmDelete', { name: r.Name || r.Imei }),
          run: () => call('/Asset/Delete', { DeviceIds: [r.DeviceId] }),
          invalidate: INVALIDATE,
        },
      ]}
      columns={[
        { key: 'Name', title: t('assets:field.name'), width: 180, onCell: userDataCell, render: (_, r) => `${r.Name || r.Imei} (${r.Imei})` },
        { key: 'Category', title: t('assets:field.category'), width: 110, render: (_, r) => t(`messages:asset.category.${r.Category}`) },
        { key: 'Location', title: t('assets:field.location'), width: 150, onCell: userDataCell, render: (_, r) => r.LocationName ?? '—' },
        { key: 'Floor', title: t('assets:field.floor'), width: 110, onCell: userDataCell, render: (_, r) => r.FloorName ?? '—' },
        { key: 'Expected', title: t('assets:field.expected'), width: 150, onCell: userDataCell, render: (_, r) => r.ExpectedLocationName ?? '—' },
        { key: 'LastSeen', title: t('assets:field.lastSeen'), width: 170, render: (_, r) => (r.LastSeen ? shownTime(r.LastSeen) : '—') },
        {
          key: 'State',
          title: t('assets:field.state'),
          width: 170,
          render: (_, r) => (
            <Space size={4}>
              {r.Missing ? <Tag color="red">{t('assets:state.2')}</Tag> : <Tag color="green">{t('assets:state.1')}</Tag>}
              {!r.Missing && <Tag>{t(r.Moving ? 'assets:moving' : 'assets:still')}</Tag>}
            </Space>
          ),
        },
        { key: 'AccountName', title: t('assets:field.account'), dataIndex: 'AccountName', width: 120, onCell: userDataCell },
      ]}
    >
      <AssetDialog open={editing !== null} asset={editing?.asset ?? null} onClose={() => setEditing(null)} />
      <StockTakeDialog open={taking} onClose={() => setTaking(false)} />
      <HistoryDialog open={history} onClose={() => setHistory(false)} />
    </ListPage>
  );
}
