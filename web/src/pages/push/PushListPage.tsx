// Partner push (/push/pushlist): companies alarms are POSTed to (signed with HMAC-SHA256 of the
// body keyed by the verification code, in X-Signature) and the log of every delivery attempt.
import { useState } from 'react';
import { Button, Card, Col, Form, Input, Radio, Row, Select, Tabs, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { pushAttemptSchema, savePushCompanyRequest, type PushCompany } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { FormDialog, RowActions } from '../../patterns';
import { catalogueActions } from '../model/catalogueActions';
import { useCan } from '../../access/can';

const KEY = ['push'] as const;

type Attempt = z.infer<typeof pushAttemptSchema>;

function Companies() {
  const { t } = useTranslation();
  const mayEdit = useCan()('push.edit');
  const [search, setSearch] = useState<{ Keyword?: string }>({});
  const [editing, setEditing] = useState<{ item: PushCompany | null } | null>(null);
  return (
    <>
      <SearchForm onSearch={setSearch} fields={[{ name: 'Keyword', label: t('push:keyword'), input: <Input allowClear style={{ width: 220 }} /> }]} />
      <DataTable<PushCompany>
        queryKey={[...KEY, 'companies']}
        params={search}
        rowKey="Id"
        scrollX={1200}
        fetch={(q, p) => call('/Push/CompanyList', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        toolbar={
          mayEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
              {t('push:add')}
            </Button>
          )
        }
        columns={[
          { key: 'Name', title: t('push:name'), dataIndex: 'Name', width: 160, onCell: userDataCell },
          { key: 'PushModel', title: t('push:model'), width: 130, render: (_, r) => t(`push:models.${r.PushModel}`) },
          { key: 'DefaultFormat', title: t('push:format'), width: 150, render: (_, r) => t(`push:formats.${r.DefaultFormat}`) },
          { key: 'PushUrl', title: t('push:url'), dataIndex: 'PushUrl', width: 220, ellipsis: true },
          { key: 'Effective', title: t('push:effective'), width: 90, render: (_, r) => <Tag color={r.Effective === 1 ? 'green' : 'default'}>{t(`push:effectiveValues.${r.Effective}`)}</Tag> },
          { key: 'VerificationCode', title: t('push:code'), width: 130, render: (_, r) => <Typography.Text copyable={{ text: r.VerificationCode }}>{'•'.repeat(8)}</Typography.Text> },
          { key: 'AccountName', title: t('push:account'), dataIndex: 'AccountName', width: 120, onCell: userDataCell },
          { key: 'Created', title: t('push:created'), dataIndex: 'Created', width: 170 },
          {
            key: 'actions',
            title: t('push:actions'),
            width: 160,
            fixed: 'right',
            render: (_, r) =>
              mayEdit && (
              <RowActions
                actions={catalogueActions(t, { name: r.Name, onEdit: () => setEditing({ item: r }), remove: () => call('/Push/DeleteCompany', { Id: r.Id }) })}
                invalidate={[KEY]}
              />
            ),
          },
        ]}
      />
      <FormDialog
        open={editing !== null}
        width={640}
        title={t(editing?.item ? 'push:edit' : 'push:add')}
        schema={savePushCompanyRequest}
        initial={editing?.item ? { ...editing.item } : { PushModel: 1, DefaultFormat: 1, Effective: 1 }}
        submit={(v: z.input<typeof savePushCompanyRequest>) => call('/Push/SaveCompany', v)}
        invalidate={[KEY]}
        onClose={() => setEditing(null)}
        fields={
          <>
            <Form.Item name="Name" label={t('push:name')} required>
              <Input maxLength={100} />
            </Form.Item>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="PushModel" label={t('push:model')}>
                  <Select options={[1, 2, 3].map((v) => ({ value: v, label: t(`push:models.${v}`) }))} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="DefaultFormat" label={t('push:format')}>
                  <Select options={[1, 2].map((v) => ({ value: v, label: t(`push:formats.${v}`) }))} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="PushUrl" label={t('push:url')} required>
              <Input placeholder="https://partner.example.com/alarms" />
            </Form.Item>
            <Form.Item name="VerificationCode" label={t('push:code')} required extra={t('push:codeHint')}>
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item name="Effective" label={t('push:effective')}>
              <Radio.Group options={[1, 2].map((v) => ({ value: v, label: t(`push:effectiveValues.${v}`) }))} />
            </Form.Item>
          </>
        }
      />
    </>
  );
}

function Deliveries() {
  const { t } = useTranslation();
  const [search, setSearch] = useState<{ Imei?: string; Success?: number }>({});
  return (
    <>
      <SearchForm
        onSearch={setSearch}
        fields={[
          { name: 'Imei', label: 'IMEI', input: <Input allowClear style={{ width: 200 }} /> },
          { name: 'Success', label: t('push:result'), input: <Select allowClear style={{ width: 120 }} options={[1, 2].map((v) => ({ value: v, label: t(`push:results.${v}`) }))} /> },
        ]}
      />
      <DataTable<Attempt>
        queryKey={[...KEY, 'attempts']}
        params={search}
        rowKey="Id"
        scrollX={1200}
        testId="push-attempts"
        fetch={(q, p) => call('/user/searchPushDataList', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        columns={[
          { key: 'Created', title: t('push:time'), dataIndex: 'Created', width: 170 },
          { key: 'CompanyName', title: t('push:name'), dataIndex: 'CompanyName', width: 140, onCell: userDataCell },
          { key: 'Imei', title: 'IMEI', dataIndex: 'Imei', width: 160 },
          { key: 'Attempt', title: t('push:attempt'), dataIndex: 'Attempt', width: 80 },
          { key: 'Success', title: t('push:result'), width: 90, render: (_, r) => <Tag color={r.Success === 1 ? 'green' : 'red'}>{t(`push:results.${r.Success}`)}</Tag> },
          { key: 'StatusCode', title: 'HTTP', width: 70, render: (_, r) => r.StatusCode ?? '—' },
          { key: 'DurationMs', title: t('push:duration'), width: 90, render: (_, r) => `${r.DurationMs} ms` },
          { key: 'Error', title: t('push:error'), dataIndex: 'Error', width: 180, ellipsis: true },
          { key: 'Body', title: t('push:body'), dataIndex: 'Body', width: 260, ellipsis: true },
        ]}
      />
    </>
  );
}

export default function PushListPage() {
  const { t } = useTranslation();
  return (
    <Card>
      <Tabs
        items={[
          { key: 'companies', label: t('push:companiesTab'), children: <Companies /> },
          { key: 'log', label: t('push:logTab'), children: <Deliveries /> },
        ]}
      />
    </Card>
  );
}
