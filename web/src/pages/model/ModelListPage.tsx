// Models (/model/list): type, protocol, the protocol's commands it supports, supported functions
// (LBS, car location, device fence, battery, app function, health config) and app display
// parameters. A device offers only its model's commands.
import { useState } from 'react';
import { Button, Card, Checkbox, Col, Form, Input, Popover, Row, Select, Space, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { catalogue, formatDateTime } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { commandName, userDataCell } from '../../i18n/texts';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { EditDialog, RowActions } from './CatalogueEditor';
import { useProtocols } from './ModelCommandPage';

type Model = z.infer<typeof catalogue.modelSchema>;
const KEY = ['model', 'models'] as const;

function ProtocolCommands({ protocolId, value, onChange }: { protocolId?: number; value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  const cmds = useQuery({
    queryKey: ['model', 'protocol-commands', protocolId],
    queryFn: () => call('/Command/deviceProtocolByCommandValues', { ProtocolId: protocolId }),
    enabled: !!protocolId,
  });
  return (
    <Checkbox.Group
      value={value}
      onChange={(v) => onChange?.(v as string[])}
      options={(cmds.data?.Items ?? []).map((c) => ({ value: c.Code, label: commandName(t, c.Code, c.Name) }))}
    />
  );
}

export default function ModelListPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const protocols = useProtocols();
  const protocolOptions = (protocols.data?.Items ?? []).map((p) => ({ value: p.ProtocolId, label: `${p.Name} (${p.Code})` }));
  const [search, setSearch] = useState<{ Keyword?: string; ProtocolId?: number }>({});
  const [editing, setEditing] = useState<{ item: Model | null } | null>(null);
  const tags = (items: readonly string[], label: string | ((x: string) => string)) => (
    <Space size={[4, 4]} wrap>
      {items.map((x) => (
        <Tag key={x}>{typeof label === 'string' ? t(`${label}.${x}`, { defaultValue: x }) : label(x)}</Tag>
      ))}
    </Space>
  );
  // A model may support thirty commands: the first few, the rest on demand, so the row stays short.
  const SHOWN_COMMANDS = 6;
  const commandTags = (items: readonly string[]) =>
    items.length <= SHOWN_COMMANDS + 1 ? (
      tags(items, (c) => commandName(t, c))
    ) : (
      <Space size={[4, 4]} wrap>
        {tags(items.slice(0, SHOWN_COMMANDS), (c) => commandName(t, c))}
        <Popover content={<div style={{ maxWidth: 420 }}>{tags(items, (c) => commandName(t, c))}</div>} title={t('model:model.commands')}>
          <Tag color="blue" style={{ cursor: 'pointer' }} data-testid="more-commands">
            +{items.length - SHOWN_COMMANDS}
          </Tag>
        </Popover>
      </Space>
    );

  return (
    <Card>
      <SearchForm
        onSearch={setSearch}
        fields={[
          { name: 'ProtocolId', label: t('model:protocol.title'), input: <Select allowClear style={{ width: 200 }} options={protocolOptions} /> },
          { name: 'Keyword', label: t('model:keyword'), input: <Input allowClear style={{ width: 200 }} /> },
        ]}
      />
      <DataTable<Model>
        queryKey={KEY}
        params={search}
        rowKey="ModelId"
        scrollX={1390}
        fetch={(q, p) => call('/Command/allModelList', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        toolbar={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
            {t('model:model.add')}
          </Button>
        }
        columns={[
          // Widths fit a 1440 px screen with the menu open up to the commands: the functions and
          // app parameters come before them, so the fixed actions column never covers them.
          { key: 'Name', title: t('model:model.name'), dataIndex: 'Name', width: 140, fixed: 'left', onCell: userDataCell },
          { key: 'Type', title: t('model:model.type'), dataIndex: 'Type', width: 110, onCell: userDataCell },
          { key: 'Protocol', title: t('model:protocol.title'), render: (_, m) => m.ProtocolName || m.Protocol, width: 120, onCell: userDataCell },
          {
            key: 'Functions',
            title: t('model:model.functions'),
            render: (_, m) => tags(catalogue.MODEL_FUNCTIONS.filter((f) => m.Functions[f]), 'model:functions'),
            width: 180,
          },
          { key: 'AppShowParams', title: t('model:model.appShowParams'), render: (_, m) => tags(m.AppShowParams, 'model:appShowParams'), width: 200 },
          { key: 'Commands', title: t('model:model.commands'), render: (_, m) => commandTags(m.Commands), width: 260 },
          { key: 'DeviceCount', title: t('model:model.devices'), dataIndex: 'DeviceCount', width: 70 },
          { key: 'CreatedAt', title: t('model:createdAt'), render: (_, m) => formatDateTime(m.CreatedAt), width: 170 },
          {
            key: 'actions',
            title: t('model:actions'),
            width: 140,
            fixed: 'right',
            render: (_, m) => (
              <RowActions
                name={m.Name}
                onEdit={() => setEditing({ item: m })}
                onDelete={async () => {
                  await call('/Command/DelDeviceModelNew', { ModelIds: [m.ModelId] });
                  await qc.invalidateQueries({ queryKey: ['model'] });
                }}
              />
            ),
          },
        ]}
      />
      <EditDialog
        open={editing !== null}
        width={760}
        title={t(editing?.item ? 'model:model.edit' : 'model:model.add')}
        schema={catalogue.saveModelRequest}
        fields={['Name', 'Type', 'ProtocolId', 'Commands', 'Functions', 'HealthItems', 'AppShowParams', 'AppHomeFx', 'Description']}
        initial={
          editing?.item
            ? {
                ModelId: editing.item.ModelId,
                Name: editing.item.Name,
                Type: editing.item.Type,
                ProtocolId: editing.item.ProtocolId,
                Commands: editing.item.Commands,
                Functions: editing.item.Functions,
                HealthItems: editing.item.HealthItems,
                AppShowParams: editing.item.AppShowParams,
                AppHomeFx: editing.item.AppHomeFx,
                Description: editing.item.Description,
              }
            : null
        }
        save={(v) => call('/Command/SaveDeviceModelNew', v as z.input<typeof catalogue.saveModelRequest>)}
        queryKey={['model']}
        onClose={() => setEditing(null)}
      >
        {() => (
          <>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item name="Name" label={t('model:model.name')} required>
                  <Input maxLength={64} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="Type" label={t('model:model.type')}>
                  <Input maxLength={64} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="ProtocolId" label={t('model:protocol.title')} required>
                  <Select options={protocolOptions} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item noStyle shouldUpdate={(a, b) => a.ProtocolId !== b.ProtocolId}>
              {({ getFieldValue }) => (
                <Form.Item name="Commands" label={t('model:model.commands')}>
                  <ProtocolCommands protocolId={getFieldValue('ProtocolId') as number | undefined} />
                </Form.Item>
              )}
            </Form.Item>
            <Form.Item label={t('model:model.functions')}>
              <Space wrap>
                {catalogue.MODEL_FUNCTIONS.map((f) => (
                  <Form.Item key={f} name={['Functions', f]} valuePropName="checked" noStyle>
                    <Checkbox>{t(`model:functions.${f}`)}</Checkbox>
                  </Form.Item>
                ))}
              </Space>
            </Form.Item>
            <Form.Item name="HealthItems" label={t('model:model.healthItems')}>
              <Checkbox.Group options={catalogue.HEALTH_ITEMS.map((h) => ({ value: h, label: t(`model:healthItems.${h}`) }))} />
            </Form.Item>
            <Form.Item name="AppShowParams" label={t('model:model.appShowParams')}>
              <Checkbox.Group options={catalogue.APP_SHOW_PARAMS.map((h) => ({ value: h, label: t(`model:appShowParams.${h}`) }))} />
            </Form.Item>
            <Form.Item name="AppHomeFx" label={t('model:model.appHomeFx')}>
              <Checkbox.Group options={catalogue.APP_HOME_FX.map((h) => ({ value: h, label: t(`model:appHomeFx.${h}`) }))} />
            </Form.Item>
            <Form.Item name="Description" label={t('model:description')}>
              <Input.TextArea rows={2} maxLength={512} />
            </Form.Item>
          </>
        )}
      </EditDialog>
    </Card>
  );
}
