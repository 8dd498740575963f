// Selling devices to a customer account: the IMEIs picked in the stock list or scanned here (or a
// quantity of the oldest in stock), the expiry time; the devices appear unbound in that account's
// device list. Refused IMEIs are named with their reasons and nothing is sold.
import { DatePicker, Input, InputNumber, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { inventory } from '@wt/contract';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { AccountSelect } from '../devices/dialogs/AccountSelect';
import { INVENTORY_KEY, splitList, useDictOptions } from './shared';
import { wallClock } from '../../session/time';

interface SaleForm {
  CustomerId?: number;
  ModelId?: number;
  Quantity?: number;
  StoreId?: number;
  ImeisText?: string;
  Expiry?: Dayjs | null;
  Remark?: string;
  Imeis?: string[];
  ExpiresAt?: string;
}

export function SaleDialog({
  open,
  onClose,
  onDone,
  imeis = [],
  modelId,
}: {
  open: boolean;
  onClose: () => void;
  /** After a sale is stored (the list clears its selection of the devices just sold). */
  onDone?: () => void;
  imeis?: string[];
  modelId?: number;
}) {
  const { t } = useTranslation();
  const models = useDictOptions('models');
  const stores = useDictOptions('stores');
  return (
    <FormDialog<SaleForm, { SaleNo: string }>
      open={open}
      title={t('inventory:salesPage.add')}
      schema={inventory.saleInsertRequest}
      initial={{ ModelId: modelId, ImeisText: imeis.join('\n') }}
      transform={({ ImeisText, Expiry, ...v }) => ({
        ...v,
        Imeis: splitList(ImeisText),
        ExpiresAt: Expiry ? wallClock(Expiry.endOf('day')) : undefined,
      })}
      rename={{ Imeis: 'ImeisText', ExpiresAt: 'Expiry' }}
      submit={({ CustomerId, ModelId, Quantity, StoreId, Imeis, ExpiresAt, Remark }) =>
        call('/Inventory/SalesInsert', { CustomerId: CustomerId!, ModelId: ModelId!, Quantity, StoreId, Imeis, ExpiresAt, Remark })
      }
      successMessage={(r) => t('inventory:salesPage.sold', { no: r.SaleNo })}
      invalidate={[INVENTORY_KEY, ['devices']]}
      onClose={onClose}
      onDone={onDone}
      testId="sale-form"
      width={560}
      fields={[
        { name: 'CustomerId', label: t('inventory:customer'), required: true, input: <AccountSelect testId="sale-customer" /> },
        { name: 'ModelId', label: t('inventory:model'), required: true, input: <Select options={models.options} loading={models.loading} data-testid="sale-model" /> },
        { name: 'StoreId', label: t('inventory:store'), input: <Select allowClear options={stores.options} loading={stores.loading} /> },
        {
          name: 'ImeisText',
          label: t('inventory:salesPage.imeis'),
          extra: t('inventory:salesPage.imeisHint'),
          input: <Input.TextArea rows={5} data-testid="sale-imeis" />,
        },
        { name: 'Quantity', label: t('inventory:quantity'), input: <InputNumber min={1} max={inventory.SALE_MAX_DEVICES} style={{ width: 160 }} /> },
        { name: 'Expiry', label: t('inventory:salesPage.expiresAt'), input: <DatePicker data-testid="sale-expiry" /> },
        { name: 'Remark', label: t('inventory:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
      ]}
    />
  );
}
