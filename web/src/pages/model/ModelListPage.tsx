// Models (/model/list): type, protocol, the protocol's commands it supports, supported functions
// (LBS, car location, device fence, battery, app function, health config) and app display
// parameters. A device offers only its model's commands.
import { useState } from 'react';
import { Checkbox, Col, Form, Input, Popover, Row, Select, Space, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { catalogue } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { commandName, userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { CATALOGUE_KEY, catalogueActions, catalogueSearch, createdAtColumn } from './catalogueActions';
import { useProtocolOptions } from './ModelCommandPage';
import { useCan } from '../../access/can';

type Model = z.infer<typeof catalogue.modelSchema>;
type ModelValues = z.input<typeof catalogue.saveModelRequest>;

function ProtocolCommands({
  protocolId,
  value,
  onChange,
}: {
  protocolId?: number;
  value?: string[];
  onChange?: (v: string[]) => void;
}) {
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
      options={(cmds.data?.Items ?? []).map((c) => ({
        value: c.Code,
        label: commandName(t, c.Code, c.Name),
      }))}
    />
  );
}

export default function ModelListPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('catalogue.edit');
  const protocols = useProtocolOptions();
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
        <Popover
          content={<div style={{ maxWidth: 420 }}>{tags(items, (c) => commandName(t, c))}</div>}
          title={t('model:model.commands')}
        >
          <Tag color="blue" style={{ cursor: 'pointer' }} data-testid="more-commands">
            +{items.length - SHOWN_COMMANDS}
          </Tag>
        </Popover>
      </Space>
    );

  const item = editing?.item;

  return (
    <ListPage<Model, { Keyword?: string; ProtocolId?: number }>
      queryKey={[...CATALOGUE_KEY, 'models']}
      rowKey="ModelId"
      scrollX={1390}
      search={catalogueSearch(t, protocols)}
      fetch={(q) => call('/Command/allModelList', q)}
      toolbar={[addAction(t('model:model.add'), () => setEditing({ item: null }), { visible: mayEdit })]}
      actionsColumn={{ title: t('model:actions'), width: 140, fixed: 'right' }}
      rowActions={(m) =>
        catalogueActions(t, {
          visible: mayEdit,
          name: m.Name,
          onEdit: () => setEditing({ item: m }),
          remove: () => call('/Command/DelDeviceModelNew', { ModelIds: [m.ModelId] }),
        })
      }
      columns={[
        // Widths fit a 1440 px screen with the menu open up to the commands: the functions and
        // app parameters come before them, so the fixed actions column never covers them.
        {
          key: 'Name',
          title: t('model:model.name'),
          dataIndex: 'Name',
          width: 140,
          fixed: 'left',
          onCell: userDataCell,
        },
        { key: 'Type', title: t('model:model.type'), dataIndex: 'Type', width: 110, onCell: userDataCell },
        {
          key: 'Protocol',
          title: t('model:protocol.title'),
          render: (_, m) => m.ProtocolName || m.Protocol,
          width: 120,
          onCell: userDataCell,
        },
        {
          key: 'Functions',
          title: t('model:model.functions'),
          render: (_, m) =>
            tags(
              catalogue.MODEL_FUNCTIONS.filter((f) => m.Functions[f]),
              'model:functions',
            ),
          width: 180,
        },
        {
          key: 'AppShowParams',
          title: t('model:model.appShowParams'),
          render: (_, m) => tags(m.AppShowParams, 'model:appShowParams'),
          width: 200,
        },
        {
          key: 'Commands',
          title: t('model:model.commands'),
          render: (_, m) => commandTags(m.Commands),
          width: 260,
        },
        { key: 'DeviceCount', title: t('model:model.devices'), dataIndex: 'DeviceCount', width: 70 },
        createdAtColumn(t),
      ]}
    >
      <FormDialog<ModelValues>
        open={editing !== null}
        width={760}
        title={t(item ? 'model:model.edit' : 'model:model.add')}
        schema={catalogue.saveModelRequest}
        initial={
          item
            ? {
                ModelId: item.ModelId,
                Name: item.Name,
                Type: item.Type,
                ProtocolId: item.ProtocolId,
                Commands: item.Commands,
                Functions: item.Functions,
                HealthItems: item.HealthItems,
                AppShowParams: item.AppShowParams,
                AppHomeFx: item.AppHomeFx,
                Description: item.Description,
              }
            : {}
        }
        submit={(v) => call('/Command/SaveDeviceModelNew', v)}
        invalidate={[CATALOGUE_KEY]}
        onClose={() => setEditing(null)}
        fields={
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
                  <Select options={protocols.options} />
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
              <Checkbox.Group
                options={catalogue.HEALTH_ITEMS.map((h) => ({
                  value: h,
                  label: t(`model:healthItems.${h}`),
                }))}
              />
            </Form.Item>
            <Form.Item name="AppShowParams" label={t('model:model.appShowParams')}>
              <Checkbox.Group
                options={catalogue.APP_SHOW_PARAMS.map((h) => ({
                  value: h,
                  label: t(`model:appShowParams.${h}`),
                }))}
              />
            </Form.Item>
            <Form.Item name="AppHomeFx" label={t('model:model.appHomeFx')}>
              <Checkbox.Group
                options={catalogue.APP_HOME_FX.map((h) => ({ value: h, label: t(`model:appHomeFx.${h}`) }))}
              />
            </Form.Item>
            <Form.Item name="Description" label={t('model:description')}>
              <Input.TextArea rows={2} maxLength={512} />
            </Form.Item>
          </>
        }
      />
    </ListPage>
  );
}
