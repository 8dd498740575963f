// Commands (/model/command): code, name and details, per protocol.
import { useState } from 'react';
import { Button, Card, Form, Input, Select, type FormInstance } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COMMAND_CODES, catalogue, formatDateTime } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { USER_DATA, commandDetails, commandName } from '../../i18n/texts';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { EditDialog, RowActions } from './CatalogueEditor';

type Command = z.infer<typeof catalogue.commandSchema>;
const KEY = ['model', 'commands'] as const;

export function useProtocols() {
  return useQuery({ queryKey: ['model', 'protocols', 'all'], queryFn: () => call('/Command/deviceProtocolALL', {}), staleTime: 30_000 });
}

export default function ModelCommandPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const protocols = useProtocols();
  const protocolOptions = (protocols.data?.Items ?? []).map((p) => ({ value: p.ProtocolId, label: `${p.Name} (${p.Code})` }));
  const [search, setSearch] = useState<{ Keyword?: string; ProtocolId?: number }>({});
  const [editing, setEditing] = useState<{ item: Command | null } | null>(null);
  return (
    <Card>
      <SearchForm
        onSearch={setSearch}
        fields={[
          { name: 'ProtocolId', label: t('model:protocol.title'), input: <Select allowClear style={{ width: 200 }} options={protocolOptions} /> },
          { name: 'Keyword', label: t('model:keyword'), input: <Input allowClear style={{ width: 200 }} /> },
        ]}
      />
      <DataTable<Command>
        queryKey={KEY}
        params={search}
        rowKey="CommandId"
        fetch={(q, p) => call('/Command/cmdCollectionForPaging', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
            {t('model:command.add')}
          </Button>
        }
        columns={[
          { key: 'Code', title: t('model:command.code'), dataIndex: 'Code', width: 200 },
          { key: 'Name', title: t('model:command.name'), render: (_, c) => commandName(t, c.Code, c.Name), width: 180, onCell: (c) => (c.Name ? USER_DATA : {}) },
          { key: 'Protocol', title: t('model:protocol.title'), dataIndex: 'Protocol', width: 120 },
          { key: 'Type', title: t('model:command.type'), render: (_, c) => t(`model:commandTypes.${c.Type}`, { defaultValue: c.Type }), width: 110 },
          { key: 'Details', title: t('model:command.details'), render: (_, c) => commandDetails(t, c.Code, c.Details), onCell: (c) => (c.Details ? USER_DATA : {}) },
          { key: 'CreatedAt', title: t('model:createdAt'), render: (_, c) => formatDateTime(c.CreatedAt), width: 170 },
          {
            key: 'actions',
            title: t('model:actions'),
            width: 160,
            render: (_, c) => (
              <RowActions
                name={commandName(t, c.Code, c.Name)}
                onEdit={() => setEditing({ item: c })}
                onDelete={async () => {
                  await call('/Command/DelCommandDictionary', { CommandIds: [c.CommandId] });
                  await qc.invalidateQueries({ queryKey: ['model'] });
                }}
              />
            ),
          },
        ]}
      />
      <EditDialog
        open={editing !== null}
        title={t(editing?.item ? 'model:command.edit' : 'model:command.add')}
        schema={catalogue.saveCommandRequest}
        fields={['ProtocolId', 'Code', 'Name', 'Details']}
        initial={editing?.item ? { CommandId: editing.item.CommandId, ProtocolId: editing.item.ProtocolId, Code: editing.item.Code, Name: editing.item.Name, Details: editing.item.Details } : null}
        save={(v) => call('/Command/SaveCommandDictionary', v as z.input<typeof catalogue.saveCommandRequest>)}
        queryKey={['model']}
        onClose={() => setEditing(null)}
      >
        {(form) => <CommandFields form={form} protocolOptions={protocolOptions} />}
      </EditDialog>
    </Card>
  );
}

/** The command's fields; its name and details show the catalogue's texts until an administrator types others. */
function CommandFields({ form, protocolOptions }: { form: FormInstance; protocolOptions: { value: number; label: string }[] }) {
  const { t } = useTranslation();
  const code = Form.useWatch<string | undefined>('Code', form);
  return (
    <>
      <Form.Item name="ProtocolId" label={t('model:protocol.title')} required>
        <Select options={protocolOptions} />
      </Form.Item>
      <Form.Item name="Code" label={t('model:command.code')} required>
        <Select showSearch options={COMMAND_CODES.map((c) => ({ value: c, label: `${c} · ${commandName(t, c)}` }))} />
      </Form.Item>
      <Form.Item name="Name" label={t('model:command.name')} extra={t('model:command.overrideHint')}>
        <Input maxLength={64} placeholder={code ? commandName(t, code) : undefined} />
      </Form.Item>
      <Form.Item name="Details" label={t('model:command.details')}>
        <Input.TextArea rows={4} maxLength={1024} placeholder={code ? commandDetails(t, code) : undefined} />
      </Form.Item>
    </>
  );
}
