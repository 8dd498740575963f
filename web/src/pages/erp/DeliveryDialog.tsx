// Delivering a sales record in part or in full: out of one warehouse, a quantity (an IMEI-tracked
// product's oldest items of the warehouse are picked) or the IMEIs scanned one per line (the
// quantity is then their count). The answer names the IMEIs handed to the customer's account.
import { DatePicker, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { erpSales } from '@wt/contract';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { splitList, useDictOptions } from '../inventory/shared';
import { ERP_KEY } from './shared';

export interface DeliveryTarget {
  Id: number;
  SalesNo: string;
}

interface DeliveryForm {
  [k: string]: unknown;
  Day?: Dayjs;
  ImeisText?: string;
}

export function DeliveryDialog({ sale, onClose }: { sale: DeliveryTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const stores = useDictOptions('stores');
  return (
    <FormDialog<DeliveryForm, { Quantity: number; Imeis: string[] }>
      open={sale !== null}
      title={t('erp:delivery.title', { no: sale?.SalesNo ?? '' })}
      schema={erpSales.deliverySave}
      initial={sale ? { SaleId: sale.Id, Day: dayjs() } : {}}
      transform={({ Day, ImeisText, Quantity, ...v }) => {
        const imeis = splitList(ImeisText);
        return { ...v, ...(imeis.length ? {} : { Quantity }), Imeis: imeis, DeliveredOn: (Day ?? dayjs()).format('YYYY-MM-DD') };
      }}
      rename={{ DeliveredOn: 'Day', Imeis: 'ImeisText' }}
      submit={(v) => call('/Erp/DeliverySave', v as never)}
      successMessage={(r) => t('erp:delivery.done', { count: r.Quantity })}
      invalidate={[ERP_KEY]}
      onClose={onClose}
      testId="erp-delivery-form"
      fields={[
        { name: 'WarehouseId', label: t('erp:sale.warehouse'), required: true, input: <Select options={stores.options} loading={stores.loading} data-testid="delivery-warehouse" /> },
        { name: 'Quantity', label: t('erp:quantity'), extra: t('erp:delivery.quantityHint'), input: <InputNumber min={1} style={{ width: 160 }} data-testid="delivery-quantity" /> },
        { name: 'ImeisText', label: t('erp:delivery.imeis'), extra: t('erp:delivery.imeisHint'), input: <Input.TextArea rows={4} data-testid="delivery-imeis" /> },
        { name: 'Day', label: t('erp:delivery.day'), required: true, input: <DatePicker allowClear={false} /> },
        { name: 'Remark', label: t('erp:remark'), input: <Input maxLength={500} /> },
      ]}
    />
  );
}
