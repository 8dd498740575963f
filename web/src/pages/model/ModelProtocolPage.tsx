// Protocols (/model/protocol): code, name, command list, description.
import { useState } from 'react';
import { Input, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { catalogue } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { USER_DATA, commandName, userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { CATALOGUE_KEY, catalogueActions, createdAtColumn } from './catalogueActions';
import { useCan } from '../../access/can';

type Protocol = z.infer<typeof catalogue.protocolSchema>;
type ProtocolValues = z.input<typeof catalogue.saveProtocolRequest>;

export default function ModelProtocolPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('catalogue.edit');
  const [editing, setEditing] = useState<{ item: Protocol | null } | null>(null);
  const item = editing?.item;
  return (
    <ListPage<Protocol, { Keyword?: string }>
      queryKey={[...CATALOGUE_KEY, 'protocols']}
      rowKey="ProtocolId"
      search={[{ type: 'text', name: 'Keyword', label: t('model:keyword') }]}
      fetch={(q) => call('/Command/protocolForPaging', q)}
      toolbar={[addAction(t('model:protocol.add'), () => setEditing({ item: null }), { visible: mayEdit })]}
      actionsColumn={{ title: t('model:actions'), width: 160 }}
      rowActions={(p) =>
        catalogueActions(t, {
          visible: mayEdit,
          name: p.Name,
          onEdit: () => setEditing({ item: p }),
          remove: () => call('/Command/DelProtocol', { ProtocolIds: [p.ProtocolId] }),
        })
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
        createdAtColumn(t),
      ]}
    >
      <FormDialog<ProtocolValues>
        open={editing !== null}
        title={t(item ? 'model:protocol.edit' : 'model:protocol.add')}
        schema={catalogue.saveProtocolRequest}
        initial={
          item
            ? { ProtocolId: item.ProtocolId, Code: item.Code, Name: item.Name, Description: item.Description }
            : {}
        }
        submit={(v) => call('/Command/SaveProtocol', v)}
        invalidate={[CATALOGUE_KEY]}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'Code', label: t('model:protocol.code'), required: true, input: <Input maxLength={32} /> },
          { name: 'Name', label: t('model:protocol.name'), required: true, input: <Input maxLength={64} /> },
          {
            name: 'Description',
            label: t('model:description'),
            input: <Input.TextArea rows={3} maxLength={512} />,
          },
        ]}
      />
    </ListPage>
  );
}
