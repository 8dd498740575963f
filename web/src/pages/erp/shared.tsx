// What the ERP pages share: the query key of every ERP list, the materials and products as
// options, and the inbound/outbound record dialog of both.
import { DatePicker, Input, InputNumber, Radio } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';

export const ERP_KEY = ['erp'] as const;

/** Materials (kind 1) or products (kind 2) as select options. */
export function useStockThings(kind: 1 | 2) {
  const q = useQuery({
    queryKey: [...ERP_KEY, kind === 1 ? 'materials' : 'products', 'options'],
    queryFn: async () =>
      kind === 1
        ? (await call('/Erp/MaterialList', { PageNo: 1, PageCount: 1000 })).Items.map((m) => ({ value: m.Id, label: m.Name }))
        : (await call('/Erp/ProductList', { PageNo: 1, PageCount: 1000 })).Items.map((p) => ({ value: p.Id, label: p.ModelName })),
  });
  return { options: q.data ?? [], loading: q.isLoading };
}

interface RecordForm {
  Kind: number;
  ItemId: number;
  Direction: number;
  Quantity?: number;
  Day?: Dayjs;
  RecordDate?: string;
  Remark?: string;
}

/** An inbound or outbound record of one material or product (quantity not 0, outbound not above stock). */
export function RecordDialog({ target, onClose }: { target: { kind: 1 | 2; id: number; name: string; direction: 1 | 2 } | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<RecordForm, { Balance: number }>
      open={target !== null}
      title={target ? t(target.direction === 1 ? 'erp:record.in' : 'erp:record.out', { name: target.name }) : ''}
      schema={erp.stockRecordInsert}
      initial={target ? { Kind: target.kind, ItemId: target.id, Direction: target.direction, Day: dayjs() } : {}}
      transform={({ Day, ...v }) => ({ ...v, RecordDate: (Day ?? dayjs()).format('YYYY-MM-DD') })}
      rename={{ RecordDate: 'Day' }}
      submit={(v) => call('/Erp/StockRecordInsert', { Kind: v.Kind, ItemId: v.ItemId, Direction: v.Direction, Quantity: v.Quantity as number, RecordDate: v.RecordDate!, Remark: v.Remark })}
      successMessage={t('erp:saved')}
      invalidate={[ERP_KEY]}
      onClose={onClose}
      testId="erp-record-form"
      fields={[
        {
          name: 'Direction',
          label: t('erp:direction'),
          input: (
            <Radio.Group>
              <Radio value={1}>{t('erp:inbound')}</Radio>
              <Radio value={2}>{t('erp:outbound')}</Radio>
            </Radio.Group>
          ),
        },
        { name: 'Quantity', label: t('erp:quantity'), required: true, input: <InputNumber min={1} style={{ width: 160 }} data-testid="erp-record-quantity" /> },
        { name: 'Day', label: t('erp:date'), required: true, input: <DatePicker allowClear={false} /> },
        { name: 'Remark', label: t('erp:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
      ]}
    />
  );
}

/** Suppliers or customers (master data) as select options. */
export function useParties(kind: 'supplier' | 'customer') {
  const q = useQuery({
    queryKey: [...ERP_KEY, kind === 'supplier' ? 'suppliers' : 'customers', 'options'],
    queryFn: async () => (await (kind === 'supplier' ? call('/Erp/SupplierList', { PageNo: 1, PageCount: 1000 }) : call('/Erp/CustomerList', { PageNo: 1, PageCount: 1000 }))).Items.map((p) => ({ value: p.Id, label: p.Name })),
  });
  return { options: q.data ?? [], loading: q.isLoading };
}

/** An amount's cents, or null when the text is not an amount. */
export function centsOf(v: unknown): number | null {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
  return /^\d{1,10}(\.\d{1,2})?$/.test(s) ? erp.toCents(s) : null;
}
