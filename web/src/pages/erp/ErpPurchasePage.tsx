// Purchasing (/erp/purchase): purchase orders (order number, purchase order number, content,
// purpose, amount) with what was paid and invoiced and their audit state; batches and invoices in
// the order's drawer; approval from unaudited to audited (SPEC §4), after which the order is fixed.
import { useState } from 'react';
import { Tag } from 'antd';
import { AuditOutlined, DeleteOutlined, EditOutlined, EyeOutlined, InboxOutlined, ProfileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { ExportButton } from '../../components/ExportButton';
import { ListPage, addAction, type RowAction } from '../../patterns';
import { useCan } from '../../access/can';
import { PurchaseDrawer, type Purchase } from './PurchaseDrawer';
import { PurchaseOrderDialog, PurchaseOrderView } from './PurchaseOrderDialog';
import { ReceiptDialog } from './ReceiptDialog';
import { ERP_KEY } from './shared';

const KEY = [...ERP_KEY, 'purchases'];

export default function ErpPurchasePage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const [editing, setEditing] = useState<{ row: Purchase | null } | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const [viewing, setViewing] = useState<Purchase | null>(null);
  const [receiving, setReceiving] = useState<Purchase | null>(null);
  return (
    <ListPage<Purchase, { Keyword?: string; Audit?: number }>
      queryKey={KEY}
      rowKey="Id"
      testId="erp-purchases"
      search={[
        { type: 'text', name: 'Keyword', label: t('erp:keyword') },
        { type: 'select', name: 'Audit', label: t('erp:purchase.audit'), options: [1, 2].map((a) => ({ value: a, label: t(`erp:purchase.audits.${a}`) })), width: 130 },
      ]}
      fetch={(q) => call('/Erp/PurchaseList', q)}
      toolbar={(ctx) => [
        addAction(t('erp:purchase.add'), () => setEditing({ row: null }), { visible: mayEdit, testId: 'purchase-add' }),
        <ExportButton key="export" path="/Erp/ListExport" body={() => ({ List: 'purchases', Filter: ctx.search })} fileName={`${t('erp:export.purchases')}.xlsx`} testId="export-purchases" />,
      ]}
      actionsColumn={{ title: t('erp:actions'), width: 380 }}
      rowActions={(r): RowAction[] => [
        { key: 'detail', label: t('erp:purchase.batches'), icon: <ProfileOutlined />, testId: 'purchase-detail', onClick: () => setOpenId(r.Id) },
        {
          key: 'audit',
          label: t('erp:purchase.approve'),
          icon: <AuditOutlined />,
          visible: mayEdit && r.Audit === 1,
          testId: 'purchase-audit',
          confirm: t('erp:purchase.confirmAudit', { no: r.OrderNo }),
          run: () => call('/Erp/PurchaseAudit', { Id: r.Id }),
          success: t('erp:purchase.audited'),
          invalidate: [ERP_KEY],
        },
        { key: 'receive', label: t('erp:receipt.receive'), icon: <InboxOutlined />, visible: mayEdit && r.Audit === 2 && r.Lines.some((l) => l.Received < l.Quantity), testId: 'purchase-receive', onClick: () => setReceiving(r) },
        { key: 'edit', label: t('erp:edit'), icon: <EditOutlined />, visible: mayEdit && r.Audit === 1, testId: 'purchase-edit', onClick: () => setEditing({ row: r }) },
        { key: 'view', label: t('erp:view'), icon: <EyeOutlined />, visible: r.Audit === 2, testId: 'purchase-view', onClick: () => setViewing(r) },
        {
          key: 'delete',
          label: t('erp:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          visible: mayEdit && r.Audit === 1,
          confirm: t('erp:confirmDelete', { name: r.OrderNo }),
          run: () => call('/Erp/PurchaseDelete', { Id: r.Id }),
          success: t('erp:deleted'),
          invalidate: [ERP_KEY],
        },
      ]}
      columns={[
        { key: 'OrderNo', title: t('erp:purchase.orderNo'), dataIndex: 'OrderNo', width: 130, onCell: userDataCell },
        { key: 'PoNo', title: t('erp:purchase.poNo'), dataIndex: 'PoNo', width: 130, onCell: userDataCell },
        { key: 'SupplierName', title: t('erp:supplier'), dataIndex: 'SupplierName', width: 150, onCell: userDataCell },
        { key: 'Content', title: t('erp:purchase.content'), dataIndex: 'Content', width: 200, onCell: userDataCell },
        { key: 'Purpose', title: t('erp:purchase.purpose'), width: 120, render: (_, r) => t(`erp:purchase.purposes.${r.Purpose}`) },
        { key: 'Amount', title: t('erp:purchase.amount'), dataIndex: 'Amount', width: 110, align: 'right' },
        { key: 'Paid', title: t('erp:purchase.paid'), dataIndex: 'Paid', width: 110, align: 'right' },
        { key: 'Invoiced', title: t('erp:purchase.invoiced'), dataIndex: 'Invoiced', width: 110, align: 'right' },
        { key: 'Batches', title: t('erp:purchase.batches'), width: 80, render: (_, r) => r.Batches.length },
        { key: 'Audit', title: t('erp:purchase.audit'), width: 100, render: (_, r) => <Tag color={r.Audit === 2 ? 'green' : 'orange'}>{t(`erp:purchase.audits.${r.Audit}`)}</Tag> },
      ]}
    >
      <PurchaseOrderDialog editing={editing} onClose={() => setEditing(null)} />
      <PurchaseOrderView order={viewing} onClose={() => setViewing(null)} />
      <ReceiptDialog order={receiving} onClose={() => setReceiving(null)} />
      <PurchaseDrawer orderId={openId} mayEdit={mayEdit} onClose={() => setOpenId(null)} />
    </ListPage>
  );
}

