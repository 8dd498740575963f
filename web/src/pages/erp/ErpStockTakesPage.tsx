// Stock-takes (/erp/stockTakes): a count sheet per warehouse with every material and product kept
// there (expected: the ledger's stock when the sheet was made), the counts entered line by line,
// and confirming, which posts each difference to the stock ledger as an adjustment.
import { useState } from 'react';
import { Input, InputNumber, Modal, Select, Table, Tag } from 'antd';
import { CheckOutlined, EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { erpSales } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { errorText } from '../../i18n/errors';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction, type RowAction } from '../../patterns';
import { useCan } from '../../access/can';
import { useDictOptions } from '../inventory/shared';
import { ERP_KEY } from './shared';

type StockTake = z.infer<typeof erpSales.stockTakeSchema>;

function CountDialog({ take, onClose }: { take: StockTake | null; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [counts, setCounts] = useState<Record<number, number | null>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const value = (id: number, fallback: number | null) => (id in counts ? counts[id]! : fallback);
  const save = async () => {
    if (!take) return;
    setBusy(true);
    try {
      await call('/Erp/StockTakeCount', { Id: take.Id, Lines: take.Lines.map((l) => ({ Id: l.Id, Counted: value(l.Id, l.Counted) })) });
      await client.invalidateQueries({ queryKey: ERP_KEY });
      setCounts({});
      onClose();
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={take !== null} title={t('erp:stockTake.count')} onOk={save} confirmLoading={busy} onCancel={() => (setCounts({}), setError(null), onClose())} width={720} destroyOnHidden>
      {error ? <Tag color="red">{error}</Tag> : null}
      <Table
        size="small"
        rowKey="Id"
        pagination={false}
        dataSource={take?.Lines ?? []}
        data-testid="erp-stocktake-lines"
        columns={[
          { key: 'Kind', title: t('erp:stockTake.kind'), width: 90, render: (_, l) => t(`erp:item.${l.Kind}`) },
          { key: 'ItemName', title: t('erp:name'), dataIndex: 'ItemName', onCell: userDataCell },
          { key: 'Expected', title: t('erp:stockTake.expected'), dataIndex: 'Expected', width: 90 },
          {
            key: 'Counted',
            title: t('erp:stockTake.counted'),
            width: 130,
            render: (_, l) => <InputNumber min={0} max={10_000_000} precision={0} value={value(l.Id, l.Counted)} onChange={(v) => setCounts((c) => ({ ...c, [l.Id]: v ?? null }))} />,
          },
          {
            key: 'Difference',
            title: t('erp:stockTake.difference'),
            width: 90,
            render: (_, l) => {
              const c = value(l.Id, l.Counted);
              return c === null ? '' : c - l.Expected;
            },
          },
        ]}
      />
    </Modal>
  );
}

export default function ErpStockTakesPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const stores = useDictOptions('stores');
  const [starting, setStarting] = useState(false);
  const [counting, setCounting] = useState<StockTake | null>(null);
  return (
    <ListPage<StockTake, object>
      queryKey={[...ERP_KEY, 'stock-takes']}
      rowKey="Id"
      testId="erp-stock-takes"
      fetch={(q) => call('/Erp/StockTakeList', q)}
      toolbar={[addAction(t('erp:stockTake.start'), () => setStarting(true), { visible: mayEdit, testId: 'erp-stocktake-add' })]}
      actionsColumn={{ title: t('erp:actions'), width: 220 }}
      rowActions={(r): RowAction[] => [
        { key: 'count', label: t('erp:stockTake.count'), icon: <EditOutlined />, visible: mayEdit && r.State === 1, onClick: () => setCounting(r) },
        {
          key: 'confirm',
          label: t('erp:stockTake.confirm'),
          icon: <CheckOutlined />,
          visible: mayEdit && r.State === 1,
          confirm: t('erp:stockTake.confirmAsk'),
          run: () => call('/Erp/StockTakeConfirm', { Id: r.Id }),
          success: (res) => t('erp:stockTake.confirmed', { count: (res as { Adjusted: number }).Adjusted }),
          invalidate: [ERP_KEY],
        },
      ]}
      columns={[
        { key: 'Id', title: '#', dataIndex: 'Id', width: 70 },
        { key: 'WarehouseName', title: t('erp:sale.warehouse'), dataIndex: 'WarehouseName', width: 120 },
        { key: 'State', title: t('erp:stockTake.state'), width: 100, render: (_, r) => <Tag color={r.State === 2 ? 'green' : 'orange'}>{t(`erp:stockTake.states.${r.State}`)}</Tag> },
        { key: 'Lines', title: t('erp:stockTake.lines'), width: 80, render: (_, r) => r.Lines.length },
        { key: 'Remark', title: t('erp:remark'), dataIndex: 'Remark', onCell: userDataCell },
        { key: 'Created', title: t('erp:created'), dataIndex: 'Created', width: 170 },
        { key: 'ConfirmedAt', title: t('erp:stockTake.confirmedAt'), dataIndex: 'ConfirmedAt', width: 170 },
      ]}
    >
      <FormDialog<{ WarehouseId?: number; Remark?: string }>
        open={starting}
        title={t('erp:stockTake.start')}
        schema={erpSales.stockTakeStart}
        initial={{}}
        submit={(v) => call('/Erp/StockTakeStart', v as never)}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setStarting(false)}
        testId="erp-stocktake-form"
        fields={[
          { name: 'WarehouseId', label: t('erp:sale.warehouse'), required: true, input: <Select options={stores.options} loading={stores.loading} /> },
          { name: 'Remark', label: t('erp:remark'), input: <Input maxLength={500} /> },
        ]}
      />
      <CountDialog take={counting} onClose={() => setCounting(null)} />
    </ListPage>
  );
}
