// Commands (/model/command): code, name and details, per protocol.
import { useState } from 'react';
import { Form, Input, Select, type FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COMMAND_CODES, catalogue } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { USER_DATA, commandDetails, commandName } from '../../i18n/texts';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { CATALOGUE_KEY, catalogueActions, catalogueSearch, createdAtColumn } from './catalogueActions';
import { useCan } from '../../access/can';

type Command = z.infer<typeof catalogue.commandSchema>;
type CommandValues = z.input<typeof catalogue.saveCommandRequest>;

export function useProtocols() {
  return useQuery({
    queryKey: [...CATALOGUE_KEY, 'protocols', 'all'],
    queryFn: () => call('/Command/deviceProtocolALL', {}),
    staleTime: 30_000,
  });
}

/** The protocols as choices of a select. */
export function useProtocolOptions() {
  const protocols = useProtocols();
  return {
    options: (protocols.data?.Items ?? []).map((p) => ({
      value: p.ProtocolId,
      label: `${p.Name} (${p.Code})`,
    })),
    loading: protocols.isLoading,
  };
}

export default function ModelCommandPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('catalogue.edit');
  const protocols = useProtocolOptions();
  const [editing, setEditing] = useState<{ item: Command | null } | null>(null);
  const item = editing?.item;
  return (
    <ListPage<Command, { Keyword?: string; ProtocolId?: number }>
      queryKey={[...CATALOGUE_KEY, 'commands']}
      rowKey="CommandId"
      search={catalogueSearch(t, protocols)}
      fetch={(q) => call('/Command/cmdCollectionForPaging', q)}
      toolbar={[addAction(t('model:command.add'), () => setEditing({ item: null }), { visible: mayEdit })]}
      actionsColumn={{ title: t('model:actions'), width: 160 }}
      rowActions={(c) =>
        catalogueActions(t, {
          visible: mayEdit,
          name: commandName(t, c.Code, c.Name),
          onEdit: () => setEditing({ item: c }),
          remove: () => call('/Command/DelCommandDictionary', { CommandIds: [c.CommandId] }),
        })
      }
      columns={[
        { key: 'Code', title: t('model:command.code'), dataIndex: 'Code', width: 200 },
        {
          key: 'Name',
          title: t('model:command.name'),
          render: (_, c) => commandName(t, c.Code, c.Name),
          width: 180,
          onCell: (c) => (c.Name ? USER_DATA : {}),
        },
        { key: 'Protocol', title: t('model:protocol.title'), dataIndex: 'Protocol', width: 120 },
        {
          key: 'Type',
          title: t('model:command.type'),
          render: (_, c) => t(`model:commandTypes.${c.Type}`, { defaultValue: c.Type }),
          width: 110,
        },
        {
          key: 'Details',
          title: t('model:command.details'),
          render: (_, c) => commandDetails(t, c.Code, c.Details),
          onCell: (c) => (c.Details ? USER_DATA : {}),
        },
        createdAtColumn(t),
      ]}
    >
      <FormDialog<CommandValues>
        open={editing !== null}
        title={t(item ? 'model:command.edit' : 'model:command.add')}
        schema={catalogue.saveCommandRequest}
        initial={
          item
            ? {
                CommandId: item.CommandId,
                ProtocolId: item.ProtocolId,
                Code: item.Code,
                Name: item.Name,
                Details: item.Details,
              }
            : {}
        }
        submit={(v) => call('/Command/SaveCommandDictionary', v)}
        invalidate={[CATALOGUE_KEY]}
        onClose={() => setEditing(null)}
        fields={(form) => <CommandFields form={form} protocolOptions={protocols.options} />}
      />
    </ListPage>
  );
}

/** The command's fields; its name and details show the catalogue's texts until an administrator types others. */
function CommandFields({
  form,
  protocolOptions,
}: {
  form: FormInstance;
  protocolOptions: { value: number; label: string }[];
}) {
  const { t } = useTranslation();
  const code = Form.useWatch<string | undefined>('Code', form);
  return (
    <>
      <Form.Item name="ProtocolId" label={t('model:protocol.title')} required>
        <Select options={protocolOptions} />
      </Form.Item>
      <Form.Item name="Code" label={t('model:command.code')} required>
        <Select
          showSearch
          options={COMMAND_CODES.map((c) => ({ value: c, label: `${c} · ${commandName(t, c)}` }))}
        />
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
