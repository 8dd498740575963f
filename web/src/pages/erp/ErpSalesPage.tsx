// Sales records (/erp/sales): customer company, product, quantity, prices (receivable and actual),
// payment method and type, invoicing, salesperson, sales time, version and the devices sold; the
// sales detail (devices and shipping info) in a drawer; shipping writes the outbound order (the
// products leave stock); discard makes a record obsolete.
import { useState } from 'react';
import { DatePicker, Descriptions, Drawer, Form, Input, InputNumber, Select, Space, Table, Tag } from 'antd';
import { CarOutlined, EditOutlined, FileTextOutlined, ProfileOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction, type RowAction } from '../../patterns';
import { useCan } from '../../access/can';
import { useDictOptions } from '../inventory/shared';
import { ERP_KEY, useParties, useStockThings } from './shared';
import { wallClock } from '../../session/time';
import { DeliveryDialog } from './DeliveryDialog';
import { SaleDocumentsDrawer } from './SaleDocumentsDrawer';

type Sale = z.infer<typeof erp.erpSaleSchema>;
const SHIP_COLORS: Record<number, string> = { 1: 'orange', 2: 'default', 3: 'green' };
const options = (t: (k: string) => string, base: string, values: number[]) => values.map((v) => ({ value: v, label: t(`${base}.${v}`) }));

/** Device lines "IMEI, ICCID, YYYY-MM-DD" as the call's devices. */
function parseDevices(text: string | undefined) {
  return (text ?? '')
    .split(/\n+/)
    .map((l) => l.split(/[,，\s]+/).filter(Boolean))
    .filter((p) => p.length)
    .map(([Imei, Iccid = '', ExpiresAt]) => ({ Imei: Imei!, Iccid, ...(ExpiresAt ? { ExpiresAt } : {}) }));
}

/** The customer picked from the master data; its name becomes the record's customer company. */
function CustomerSelect(props: { value?: number | null; onChange?: (v: number | null) => void }) {
  const form = Form.useFormInstance();
  const customers = useParties('customer');
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      options={customers.options}
      loading={customers.loading}
      value={props.value ?? undefined}
      onChange={(v?: number) => {
        props.onChange?.(v ?? null);
        const picked = customers.options.find((o) => o.value === v);
        if (picked) form.setFieldValue('CustomerCompany', picked.label);
      }}
      data-testid="erp-sale-customer-id"
    />
  );
}

interface SaleForm {
  [k: string]: unknown;
  SoldDay?: Dayjs;
  DevicesText?: string;
}

export default function ErpSalesPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const products = useStockThings(2);
  const stores = useDictOptions('stores');
  const [editing, setEditing] = useState<{ row: Sale | null } | null>(null);
  const [shipping, setShipping] = useState<Sale | null>(null);
  const [detail, setDetail] = useState<Sale | null>(null);
  const [delivering, setDelivering] = useState<Sale | null>(null);
  const [documents, setDocuments] = useState<Sale | null>(null);
  const row = editing?.row;
  return (
    <ListPage<Sale, { Keyword?: string; ShipState?: number; Discarded?: number }>
      queryKey={[...ERP_KEY, 'sales']}
      rowKey="Id"
      testId="erp-sales"
      search={[
        { type: 'text', name: 'Keyword', label: t('erp:keyword') },
        { type: 'select', name: 'ShipState', label: t('erp:sale.state'), options: options(t, 'erp:sale.shipStates', [1, 2, 3]), width: 120 },
        { type: 'select', name: 'Discarded', label: t('erp:sale.discarded'), options: [{ value: 1, label: t('erp:sale.discarded') }], width: 120 },
      ]}
      fetch={(q) => call('/Erp/SaleList', q)}
      toolbar={[addAction(t('erp:sale.add'), () => setEditing({ row: null }), { visible: mayEdit, testId: 'erp-sale-add' })]}
      actionsColumn={{ title: t('erp:actions'), width: 420, fixed: 'right' }}
      rowActions={(r): RowAction[] => [
        { key: 'detail', label: t('erp:sale.devices'), icon: <ProfileOutlined />, onClick: () => setDetail(r) },
        { key: 'deliver', label: t('erp:delivery.deliver'), icon: <SendOutlined />, testId: 'erp-sale-deliver', visible: mayEdit && !r.Discarded && r.ShipState !== 3, onClick: () => setDelivering(r) },
        { key: 'documents', label: t('erp:documents.open'), icon: <FileTextOutlined />, testId: 'erp-sale-documents', onClick: () => setDocuments(r) },
        { key: 'ship', label: t('erp:sale.ship'), icon: <CarOutlined />, testId: 'erp-sale-ship', visible: mayEdit && !r.Discarded && r.ShipState !== 3, onClick: () => setShipping(r) },
        { key: 'edit', label: t('erp:edit'), icon: <EditOutlined />, visible: mayEdit && !r.Discarded, onClick: () => setEditing({ row: r }) },
        {
          key: 'discard',
          label: t('erp:sale.discard'),
          icon: <StopOutlined />,
          danger: true,
          visible: mayEdit && !r.Discarded,
          confirm: t('erp:sale.confirmDiscard', { no: r.SalesNo }),
          run: () => call('/Erp/SaleDiscard', { Id: r.Id }),
          success: t('erp:sale.discardedDone'),
          invalidate: [ERP_KEY],
        },
      ]}
      scrollX={1900}
      columns={[
        { key: 'SalesNo', title: t('erp:sale.salesNo'), dataIndex: 'SalesNo', width: 130, fixed: 'left', onCell: userDataCell },
        { key: 'CustomerCompany', title: t('erp:sale.customer'), dataIndex: 'CustomerCompany', width: 160, onCell: userDataCell },
        { key: 'ProductName', title: t('erp:modelName'), dataIndex: 'ProductName', width: 110, onCell: userDataCell },
        { key: 'Quantity', title: t('erp:quantity'), dataIndex: 'Quantity', width: 80 },
        { key: 'UnitPrice', title: t('erp:sale.unitPrice'), dataIndex: 'UnitPrice', width: 100, align: 'right' },
        { key: 'Receivable', title: t('erp:sale.receivable'), dataIndex: 'Receivable', width: 110, align: 'right' },
        { key: 'Actual', title: t('erp:sale.actual'), dataIndex: 'Actual', width: 110, align: 'right' },
        { key: 'PayMethod', title: t('erp:sale.payMethod'), width: 100, render: (_, r) => t(`erp:sale.payMethods.${r.PayMethod}`) },
        { key: 'PayType', title: t('erp:sale.payType'), width: 100, render: (_, r) => t(`erp:sale.payTypes.${r.PayType}`) },
        { key: 'Invoicing', title: t('erp:sale.invoicing'), width: 100, render: (_, r) => t(`erp:sale.invoicings.${r.Invoicing}`) },
        { key: 'Salesperson', title: t('erp:sale.salesperson'), dataIndex: 'Salesperson', width: 100, onCell: userDataCell },
        { key: 'SoldAt', title: t('erp:sale.soldAt'), dataIndex: 'SoldAt', width: 170 },
        {
          key: 'ShipState',
          title: t('erp:sale.state'),
          width: 110,
          render: (_, r) => (
            <Space size={4}>
              <Tag color={SHIP_COLORS[r.ShipState]}>{t(`erp:sale.shipStates.${r.ShipState}`)}</Tag>
              {r.Discarded ? <Tag color="red">{t('erp:sale.discarded')}</Tag> : null}
            </Space>
          ),
        },
        { key: 'OutboundNo', title: t('erp:sale.outboundNo'), dataIndex: 'OutboundNo', width: 150 },
      ]}
    >
      <FormDialog<SaleForm>
        open={editing !== null}
        title={t(row ? 'erp:sale.edit' : 'erp:sale.add')}
        schema={erp.erpSaleSave}
        width={640}
        initial={
          row
            ? {
                Id: row.Id, SalesNo: row.SalesNo, CustomerId: row.CustomerId, CustomerCompany: row.CustomerCompany, ProductId: row.ProductId, Quantity: row.Quantity, UnitPrice: row.UnitPrice,
                Receivable: row.Receivable, Actual: row.Actual, PayMethod: row.PayMethod, PayType: row.PayType, Invoicing: row.Invoicing, Salesperson: row.Salesperson,
                Version: row.Version, SoldDay: dayjs(row.SoldAt), DevicesText: row.Devices.map((d) => [d.Imei, d.Iccid, d.ExpiresAt?.slice(0, 10) ?? ''].join(', ')).join('\n'),
              }
            : { PayMethod: 1, PayType: 1, Invoicing: 2, SoldDay: dayjs() }
        }
        transform={({ SoldDay, DevicesText, ...v }) => ({
          ...v,
          ...Object.fromEntries(['UnitPrice', 'Receivable', 'Actual'].map((k) => [k, v[k] === undefined || v[k] === null ? '' : String(v[k])])),
          SoldAt: wallClock(SoldDay ?? dayjs()),
          Devices: parseDevices(DevicesText),
        })}
        rename={{ SoldAt: 'SoldDay', Devices: 'DevicesText' }}
        submit={(v) => call('/Erp/SaleSave', v as never)}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setEditing(null)}
        testId="erp-sale-form"
        fields={[
          { name: 'SalesNo', label: t('erp:sale.salesNo'), required: true, input: <Input maxLength={64} data-testid="erp-sale-no" /> },
          { name: 'CustomerId', label: t('erp:sale.customerPick'), input: <CustomerSelect /> },
          { name: 'CustomerCompany', label: t('erp:sale.customer'), required: true, input: <Input maxLength={100} data-testid="erp-sale-customer" /> },
          { name: 'ProductId', label: t('erp:modelName'), required: true, input: <Select options={products.options} loading={products.loading} data-testid="erp-sale-product" /> },
          { name: 'Quantity', label: t('erp:quantity'), required: true, input: <InputNumber min={1} style={{ width: 160 }} data-testid="erp-sale-quantity" /> },
          { name: 'UnitPrice', label: t('erp:sale.unitPrice'), required: true, input: <Input style={{ width: 160 }} data-testid="erp-sale-price" /> },
          { name: 'Receivable', label: t('erp:sale.receivable'), required: true, input: <Input style={{ width: 160 }} data-testid="erp-sale-receivable" /> },
          { name: 'Actual', label: t('erp:sale.actual'), required: true, input: <Input style={{ width: 160 }} data-testid="erp-sale-actual" /> },
          { name: 'PayMethod', label: t('erp:sale.payMethod'), required: true, input: <Select options={options(t, 'erp:sale.payMethods', [1, 2])} /> },
          { name: 'PayType', label: t('erp:sale.payType'), required: true, input: <Select options={options(t, 'erp:sale.payTypes', [1, 2, 3])} /> },
          { name: 'Invoicing', label: t('erp:sale.invoicing'), input: <Select options={options(t, 'erp:sale.invoicings', [1, 2])} /> },
          { name: 'Salesperson', label: t('erp:sale.salesperson'), input: <Input maxLength={64} /> },
          { name: 'SoldDay', label: t('erp:sale.soldAt'), required: true, input: <DatePicker showTime allowClear={false} /> },
          { name: 'Version', label: t('erp:sale.version'), input: <Input maxLength={64} /> },
          { name: 'DevicesText', label: t('erp:sale.devices'), extra: t('erp:sale.devicesHint'), input: <Input.TextArea rows={4} /> },
        ]}
      />
      <FormDialog<{ Id: number; ShipState: number; Day?: Dayjs; ShipDate?: string; TrackingNo?: string; WarehouseId?: number; Recipient?: string; Phone?: string; Address?: string }, { OutboundNo: string }>
        open={shipping !== null}
        title={t('erp:sale.shipTitle', { no: shipping?.SalesNo ?? '' })}
        schema={erp.erpSaleShip}
        initial={shipping ? { Id: shipping.Id, ShipState: 3, Day: dayjs() } : {}}
        transform={({ Day, ...v }) => ({ ...v, ShipDate: (Day ?? dayjs()).format('YYYY-MM-DD') })}
        submit={(v) => call('/Erp/SaleShip', { Id: v.Id, ShipState: 3, ShipDate: v.ShipDate, TrackingNo: v.TrackingNo, WarehouseId: v.WarehouseId, Recipient: v.Recipient, Phone: v.Phone, Address: v.Address })}
        successMessage={(r) => t('erp:sale.shipped', { no: r.OutboundNo })}
        invalidate={[ERP_KEY]}
        onClose={() => setShipping(null)}
        testId="erp-ship-form"
        fields={[
          { name: 'TrackingNo', label: t('erp:sale.trackingNo'), required: true, input: <Input maxLength={64} data-testid="ship-tracking" /> },
          { name: 'WarehouseId', label: t('erp:sale.warehouse'), required: true, input: <Select options={stores.options} loading={stores.loading} data-testid="ship-warehouse" /> },
          { name: 'Recipient', label: t('erp:sale.recipient'), required: true, input: <Input maxLength={64} data-testid="ship-recipient" /> },
          { name: 'Phone', label: t('erp:sale.phone'), required: true, input: <Input maxLength={32} data-testid="ship-phone" /> },
          { name: 'Address', label: t('erp:sale.address'), required: true, input: <Input maxLength={200} data-testid="ship-address" /> },
          { name: 'Day', label: t('erp:sale.shipDate'), input: <DatePicker allowClear={false} /> },
        ]}
      />
      <DeliveryDialog sale={delivering} onClose={() => setDelivering(null)} />
      <SaleDocumentsDrawer sale={documents} mayEdit={mayEdit} onClose={() => setDocuments(null)} />
      <Drawer open={detail !== null} onClose={() => setDetail(null)} size={640} title={detail?.SalesNo} destroyOnHidden>
        {detail ? (
          <Space orientation="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions size="small" column={2} bordered>
              <Descriptions.Item label={t('erp:sale.state')}>{t(`erp:sale.shipStates.${detail.ShipState}`)}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.outboundNo')}>{detail.OutboundNo}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.trackingNo')}>{detail.TrackingNo}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.warehouse')}>{detail.WarehouseName}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.recipient')}>{detail.Recipient}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.phone')}>{detail.Phone}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.address')} span={2}>{detail.Address}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.shipDate')}>{detail.ShipDate}</Descriptions.Item>
              <Descriptions.Item label={t('erp:sale.version')}>{detail.Version}</Descriptions.Item>
            </Descriptions>
            <Table
              size="small"
              rowKey="Imei"
              pagination={detail.Devices.length > 10 ? { pageSize: 10 } : false}
              dataSource={detail.Devices}
              columns={[
                { key: 'Imei', title: t('erp:sale.imei'), dataIndex: 'Imei' },
                { key: 'Iccid', title: t('erp:sale.iccid'), dataIndex: 'Iccid' },
                { key: 'ExpiresAt', title: t('erp:sale.expires'), dataIndex: 'ExpiresAt' },
              ]}
            />
          </Space>
        ) : null}
      </Drawer>
    </ListPage>
  );
}
