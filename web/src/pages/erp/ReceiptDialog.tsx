// Goods received against an audited purchase order: each line's ordered, received and remaining
// quantities, the quantity received now (at most what remains), the warehouse and the day. Lines
// left at 0 are not received; a refusal of the server (over-receipt) goes under the line's field.
import { DatePicker, Form, Input, InputNumber, Select, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import { ApiError, call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, renderFields } from '../../patterns';
import { accountNow } from '../../session/time';
import { useDictOptions } from '../inventory/shared';
import type { Purchase } from './PurchaseDrawer';
import { ERP_KEY } from './shared';

type Line = Purchase['Lines'][number];

/** What remains to receive of a line (never below 0). */
export const remainingOf = (l: Pick<Line, 'Quantity' | 'Received'>) => Math.max(l.Quantity - l.Received, 0);

interface ReceiptForm {
  OrderId: number;
  WarehouseId?: number;
  Day?: Dayjs;
  ReceivedOn?: string;
  Remark?: string;
  Lines?: { LineId?: number; Quantity?: number | null; Pos?: number }[];
}

/**
 * The request's lines: those with a quantity, each remembering its row in the dialog (`Pos`), so a
 * refusal of the server's `Lines.k` goes under the row it names.
 */
export function receiptLines(order: Pick<Purchase, 'Lines'>, quantities: ReceiptForm['Lines']) {
  return order.Lines.map((l, i) => ({ LineId: l.Id, Quantity: quantities?.[i]?.Quantity ?? 0, Pos: i })).filter((l) => (l.Quantity ?? 0) > 0);
}

export function ReceiptDialog({ order, onClose }: { order: Purchase | null; onClose: () => void }) {
  const { t } = useTranslation();
  const stores = useDictOptions('stores');
  const submit = async (v: ReceiptForm) => {
    const lines = v.Lines ?? [];
    try {
      return await call('/Erp/ReceiptSave', {
        OrderId: v.OrderId,
        WarehouseId: v.WarehouseId as number,
        ReceivedOn: v.ReceivedOn!,
        Remark: v.Remark,
        Lines: lines.map((l) => ({ LineId: l.LineId as number, Quantity: l.Quantity as number })),
      });
    } catch (e) {
      // The server names the request's line; the dialog shows every line of the order.
      if (e instanceof ApiError && e.fields)
        throw new ApiError(
          e.state,
          e.messageKey,
          e.params,
          e.fields.map((f) => ({ ...f, Field: f.Field.replace(/^Lines\.(\d+)(\..*)?$/, (_, k: string) => `Lines.${lines[Number(k)]?.Pos ?? k}.Quantity`) })),
          e.text,
        );
      throw e;
    }
  };
  return (
    <FormDialog<ReceiptForm>
      open={order !== null}
      title={order ? t('erp:receipt.title', { no: order.OrderNo }) : ''}
      schema={erp.receiptSave}
      width={760}
      initial={order ? { OrderId: order.Id, Day: accountNow(), Lines: order.Lines.map((l) => ({ Quantity: remainingOf(l) })) } : {}}
      transform={({ Day, ...v }) => ({ ...v, ReceivedOn: (Day ?? accountNow()).format('YYYY-MM-DD'), Lines: order ? receiptLines(order, v.Lines) : [] })}
      rename={{ ReceivedOn: 'Day' }}
      submit={submit}
      successMessage={t('erp:receipt.saved')}
      invalidate={[ERP_KEY]}
      onClose={onClose}
      testId="receipt-form"
      fields={() => (
        <>
          <Table<Line>
            size="small"
            rowKey="Id"
            pagination={false}
            dataSource={order?.Lines ?? []}
            data-testid="receipt-lines"
            style={{ marginBottom: 16 }}
            columns={[
              { key: 'ItemName', title: t('erp:lines.item'), dataIndex: 'ItemName', onCell: userDataCell },
              { key: 'Quantity', title: t('erp:lines.quantity'), dataIndex: 'Quantity', align: 'right', width: 90 },
              { key: 'Received', title: t('erp:lines.received'), dataIndex: 'Received', align: 'right', width: 90 },
              { key: 'Remaining', title: t('erp:lines.remaining'), align: 'right', width: 90, render: (_: unknown, l) => <span data-testid="line-remaining">{remainingOf(l)}</span> },
              {
                key: 'Now',
                title: t('erp:receipt.now'),
                width: 200,
                render: (_: unknown, l, i) => (
                  <Form.Item name={['Lines', i, 'Quantity']} style={{ marginBottom: 0 }}>
                    <InputNumber min={0} max={remainingOf(l)} precision={0} disabled={remainingOf(l) === 0} style={{ width: 120 }} data-testid="receipt-quantity" />
                  </Form.Item>
                ),
              },
            ]}
          />
          {renderFields([
            { name: 'WarehouseId', label: t('erp:warehouse'), required: true, input: <Select options={stores.options} loading={stores.loading} style={{ width: 240 }} data-testid="receipt-warehouse" /> },
            { name: 'Day', label: t('erp:receipt.receivedOn'), required: true, input: <DatePicker allowClear={false} /> },
            { name: 'Remark', label: t('erp:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
          ])}
        </>
      )}
    />
  );
}
