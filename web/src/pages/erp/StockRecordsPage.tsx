// Inbound and outbound records of materials or products, each with the stock after it.
import { useState } from 'react';
import { Button, Select, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { ListPage } from '../../patterns';
import { useCan } from '../../access/can';
import { ERP_KEY, RecordDialog, useStockThings } from './shared';

type StockRecord = z.infer<typeof erp.stockRecordSchema>;

export function StockRecordsPage({ kind }: { kind: 1 | 2 }) {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const things = useStockThings(kind);
  const [picked, setPicked] = useState<number | undefined>();
  const [record, setRecord] = useState<{ kind: 1 | 2; id: number; name: string; direction: 1 | 2 } | null>(null);
  const pickedName = things.options.find((o) => o.value === picked)?.label ?? '';
  return (
    <ListPage<StockRecord, { ItemId?: number; Direction?: number }>
      queryKey={[...ERP_KEY, 'records', kind]}
      rowKey="Id"
      testId={`erp-records-${kind}`}
      search={[
        { type: 'select', name: 'ItemId', label: t(`erp:item.${kind}`), options: things.options, loading: things.loading, searchable: true },
        { type: 'select', name: 'Direction', label: t('erp:direction'), options: [1, 2].map((d) => ({ value: d, label: t(d === 1 ? 'erp:inbound' : 'erp:outbound') })), width: 120 },
      ]}
      fetch={(q) => call('/Erp/StockRecordList', { ...q, Kind: kind })}
      toolbar={[
        mayEdit ? (
          <Select
            key="pick"
            style={{ width: 200 }}
            placeholder={t(`erp:item.${kind}`)}
            options={things.options}
            value={picked}
            onChange={setPicked}
            showSearch={{ optionFilterProp: 'label' }}
          />
        ) : null,
        mayEdit ? (
          <Button key="in" type="primary" icon={<PlusOutlined />} disabled={!picked} onClick={() => setRecord({ kind, id: picked!, name: String(pickedName), direction: 1 })}>
            {t('erp:inbound')}
          </Button>
        ) : null,
        mayEdit ? (
          <Button key="out" icon={<PlusOutlined />} disabled={!picked} onClick={() => setRecord({ kind, id: picked!, name: String(pickedName), direction: 2 })}>
            {t('erp:outbound')}
          </Button>
        ) : null,
      ]}
      columns={[
        { key: 'ItemName', title: t(`erp:item.${kind}`), dataIndex: 'ItemName', onCell: userDataCell },
        { key: 'Direction', title: t('erp:direction'), width: 100, render: (_, r) => (r.Quantity > 0 ? <Tag color="green">{t('erp:inbound')}</Tag> : <Tag color="orange">{t('erp:outbound')}</Tag>) },
        { key: 'Quantity', title: t('erp:quantity'), width: 100, render: (_, r) => Math.abs(r.Quantity) },
        { key: 'Balance', title: t('erp:balance'), dataIndex: 'Balance', width: 100 },
        { key: 'RecordDate', title: t('erp:date'), dataIndex: 'RecordDate', width: 120 },
        { key: 'Remark', title: t('erp:remark'), dataIndex: 'Remark', onCell: userDataCell },
        { key: 'Created', title: t('erp:created'), dataIndex: 'Created', width: 170 },
      ]}
    >
      <RecordDialog target={record} onClose={() => setRecord(null)} />
    </ListPage>
  );
}
