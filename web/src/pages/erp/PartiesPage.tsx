// Suppliers and customers (master data): list, add, edit, delete (refused while a purchase order
// or sales record names the row). A customer may name the platform account it uses.
import { useState } from 'react';
import { Input, InputNumber } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction, type RowAction } from '../../patterns';
import { useCan } from '../../access/can';
import { ERP_KEY } from './shared';

type Row = z.infer<typeof erp.supplierSchema> & Partial<Pick<z.infer<typeof erp.customerSchema>, 'PlatformAccountId' | 'PlatformAccountName'>>;

export function PartiesPage({ kind }: { kind: 'supplier' | 'customer' }) {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const isSupplier = kind === 'supplier';
  const row = editing?.row;
  const addTitle = isSupplier ? 'erp:party.supplierAdd' : 'erp:customer.add';
  const editTitle = isSupplier ? 'erp:party.supplierEdit' : 'erp:customer.edit';
  return (
    <ListPage<Row, { Keyword?: string }>
      queryKey={[...ERP_KEY, isSupplier ? 'suppliers' : 'customers']}
      rowKey="Id"
      testId={isSupplier ? 'erp-suppliers' : 'erp-customers'}
      search={[{ type: 'text', name: 'Keyword', label: t('erp:keyword') }]}
      fetch={(q) => (isSupplier ? call('/Erp/SupplierList', q) : call('/Erp/CustomerList', q)) as Promise<{ Total: number; Items: Row[] }>}
      toolbar={(ctx) => [
        addAction(t(addTitle), () => setEditing({ row: null }), { visible: mayEdit, testId: 'party-add' }),
        <ExportButton
          key="export"
          path="/Erp/ListExport"
          body={() => ({ List: isSupplier ? 'suppliers' : 'customers', Filter: ctx.search })}
          fileName={`${t(isSupplier ? 'erp:export.suppliers' : 'erp:export.customers')}.xlsx`}
          testId={isSupplier ? 'export-suppliers' : 'export-customers'}
        />,
      ]}
      actionsColumn={{ title: t('erp:actions'), width: 180 }}
      rowActions={(r): RowAction[] => [
        { key: 'edit', label: t('erp:edit'), icon: <EditOutlined />, visible: mayEdit, onClick: () => setEditing({ row: r }) },
        {
          key: 'delete',
          label: t('erp:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          visible: mayEdit,
          confirm: t('erp:confirmDelete', { name: r.Name }),
          run: () => (isSupplier ? call('/Erp/SupplierDelete', { Id: r.Id }) : call('/Erp/CustomerDelete', { Id: r.Id })),
          success: t('erp:deleted'),
          invalidate: [ERP_KEY],
        },
      ]}
      columns={[
        { key: 'Name', title: t('erp:name'), dataIndex: 'Name', onCell: userDataCell },
        { key: 'Contact', title: t('erp:party.contact'), dataIndex: 'Contact', onCell: userDataCell },
        { key: 'Phone', title: t('erp:party.phone'), dataIndex: 'Phone', width: 140 },
        { key: 'Address', title: t('erp:party.address'), dataIndex: 'Address', onCell: userDataCell },
        { key: 'TaxNo', title: t('erp:party.taxNo'), dataIndex: 'TaxNo', width: 170 },
        { key: 'PaymentDays', title: t('erp:party.paymentDays'), width: 120, render: (_: unknown, r: Row) => t('erp:party.days', { count: r.PaymentDays }) },
        ...(isSupplier ? [] : [{ key: 'PlatformAccountName', title: t('erp:party.platformAccount'), dataIndex: 'PlatformAccountName', onCell: userDataCell }]),
        { key: 'Created', title: t('erp:created'), dataIndex: 'Created', width: 170 },
      ]}
    >
      <FormDialog<Record<string, unknown>>
        open={editing !== null}
        title={t(row ? editTitle : addTitle)}
        schema={isSupplier ? erp.supplierSave : erp.customerSave}
        initial={row ? { ...row } : { PaymentDays: 0 }}
        submit={(v) => (isSupplier ? call('/Erp/SupplierSave', v as never) : call('/Erp/CustomerSave', v as never))}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'Name', label: t('erp:name'), required: true, input: <Input maxLength={100} data-testid="party-name" /> },
          { name: 'Contact', label: t('erp:party.contact'), input: <Input maxLength={64} /> },
          { name: 'Phone', label: t('erp:party.phone'), input: <Input maxLength={32} /> },
          { name: 'Address', label: t('erp:party.address'), input: <Input maxLength={200} /> },
          { name: 'TaxNo', label: t('erp:party.taxNo'), input: <Input maxLength={32} /> },
          { name: 'PaymentDays', label: t('erp:party.paymentDays'), input: <InputNumber min={0} max={365} precision={0} /> },
          ...(isSupplier ? [] : [{ name: 'PlatformAccountId', label: t('erp:party.platformAccountId'), input: <InputNumber min={1} precision={0} style={{ width: '100%' }} /> }]),
          { name: 'Remark', label: t('erp:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
        ]}
      />
    </ListPage>
  );
}
