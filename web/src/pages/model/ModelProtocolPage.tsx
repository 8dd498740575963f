// Protocols (/model/protocol): code, name, command list, description.
import { useState } from 'react';
import { Button, Card, Form, Input, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { catalogue, formatDateTime } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { USER_DATA, commandName, userDataCell } from '../../i18n/texts';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { EditDialog, RowActions } from './CatalogueEditor';

type Protocol = z.infer<typeof catalogue.protocolSchema>;
const KEY = ['model', 'protocols'] as const;

export default function ModelProtocolPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [search, setSearch] = useState<{ Keyword?: string }>({});
  const [editing, setEditing] = useState<{ item: Protocol | null } | null>(null);
  return (
    <Card>
      <SearchForm onSearch={setSearch} fields={[{ name: 'Keyword', label: t('model:keyword'), input: <Input allowClear style={{ width: 200 }} /> }]} />
      <DataTable<Protocol>
        queryKey={KEY}
        params={search}
        rowKey="ProtocolId"
        fetch={(q, p) => call('/Command/protocolForPaging', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
            {t('model:protocol.add')}
          </Button>
        }
        columns={[
          { key: 'Code', title: t('model:protocol.code'), dataIndex: 'Code', width: 120 },
          { key: 'Name', title: t('model:protocol.name'), dataIndex: 'Name', width: 160, onCell: userDataCell },
          {
            key: 'Commands',
            title: t('model:protocol.commands'),
            render: (_, p) => (
              <Space size={[4, 4]} wrap>
                {p.Commands.map((c) => (
                  <Tag key={c.CommandId} {...(c.Name ? USER_DATA : {})}>
                    {commandName(t, c.Code, c.Name)}
                  </Tag>
                ))}
              </Space>
            ),
          },
          { key: 'Description', title: t('model:description'), dataIndex: 'Description', onCell: userDataCell },
          { key: 'ModelCount', title: t('model:protocol.models'), dataIndex: 'ModelCount', width: 90 },
          { key: 'CreatedAt', title: t('model:createdAt'), render: (_, p) => formatDateTime(p.CreatedAt), width: 170 },
          {
            key: 'actions',
            title: t('model:actions'),
            width: 160,
            render: (_, p) => (
              <RowActions
                name={p.Name}
                onEdit={() => setEditing({ item: p })}
                onDelete={async () => {
                  await call('/Command/DelProtocol', { ProtocolIds: [p.ProtocolId] });
                  await qc.invalidateQueries({ queryKey: ['model'] });
                }}
              />
            ),
          },
        ]}
      />
      <EditDialog
        open={editing !== null}
        title={t(editing?.item ? 'model:protocol.edit' : 'model:protocol.add')}
        schema={catalogue.saveProtocolRequest}
        fields={['Code', 'Name', 'Description']}
        initial={editing?.item ? { ProtocolId: editing.item.ProtocolId, Code: editing.item.Code, Name: editing.item.Name, Description: editing.item.Description } : null}
        save={(v) => call('/Command/SaveProtocol', v as z.input<typeof catalogue.saveProtocolRequest>)}
        queryKey={['model']}
        onClose={() => setEditing(null)}
      >
        {() => (
          <>
            <Form.Item name="Code" label={t('model:protocol.code')} required>
              <Input maxLength={32} />
            </Form.Item>
            <Form.Item name="Name" label={t('model:protocol.name')} required>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item name="Description" label={t('model:description')}>
              <Input.TextArea rows={3} maxLength={512} />
            </Form.Item>
          </>
        )}
      </EditDialog>
    </Card>
  );
}
