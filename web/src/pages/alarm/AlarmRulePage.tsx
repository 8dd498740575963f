// Alarm types (/alarm/rule, administrators): number, Chinese and English content and description,
// level, threshold range, ring type, page push, enabled or invalid.
import { useState } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, Radio, Row, Select, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ALWAYS_ON_ALARM_CODES, saveAlarmTypeRequest, type AlarmType } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { FormDialog, RowActions } from '../../patterns';
import { catalogueActions } from '../model/catalogueActions';
import { ALARM_KEY } from './queries';
import { useCan } from '../../access/can';

const LEVEL_COLORS: Record<number, string> = { 1: 'blue', 2: 'orange', 3: 'red' };

export default function AlarmRulePage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('alarm.rule');
  const [search, setSearch] = useState<{ Keyword?: string; Level?: number }>({});
  const [editing, setEditing] = useState<{ item: AlarmType | null } | null>(null);
  const levels = [1, 2, 3].map((v) => ({ value: v, label: t(`alarm:level.${v}`) }));
  const rings = [1, 2, 3].map((v) => ({ value: v, label: t(`alarm:ring.${v}`) }));
  // SOS and fall stay on and keep their number (the server refuses otherwise).
  const alwaysOn = !!editing?.item && ALWAYS_ON_ALARM_CODES.includes(editing.item.Code);

  return (
    <Card>
      <SearchForm
        onSearch={setSearch}
        fields={[
          { name: 'Keyword', label: t('alarm:type.keyword'), input: <Input allowClear style={{ width: 200 }} /> },
          { name: 'Level', label: t('alarm:type.level'), input: <Select allowClear style={{ width: 140 }} options={levels} /> },
        ]}
      />
      <DataTable<AlarmType>
        queryKey={[...ALARM_KEY, 'type-page']}
        params={search}
        rowKey="Id"
        scrollX={1100}
        fetch={(q, p) => call('/ExceptionMessage/ExceptionType', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        toolbar={
          mayEdit && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })}>
              {t('alarm:type.add')}
            </Button>
          )
        }
        columns={[
          { key: 'Code', title: t('alarm:type.code'), dataIndex: 'Code', width: 80 },
          { key: 'Name', title: t('alarm:type.content'), render: (_, r) => r.Name, width: 140 },
          { key: 'Description', title: t('alarm:type.description'), render: (_, r) => r.Description, width: 220, ellipsis: true },
          { key: 'Level', title: t('alarm:type.level'), width: 90, render: (_, r) => <Tag color={LEVEL_COLORS[r.Level]}>{t(`alarm:level.${r.Level}`)}</Tag> },
          {
            key: 'Range',
            title: t('alarm:type.threshold'),
            width: 120,
            render: (_, r) => (r.MinValue !== null && r.MaxValue !== null ? `${r.MinValue} – ${r.MaxValue}` : '—'),
          },
          { key: 'RingType', title: t('alarm:type.ring'), width: 110, render: (_, r) => t(`alarm:ring.${r.RingType}`) },
          { key: 'PagePush', title: t('alarm:type.pagePush'), width: 90, render: (_, r) => t(r.PagePush === 1 ? 'alarm:yes' : 'alarm:no') },
          {
            key: 'Enabled',
            title: t('alarm:type.enabled'),
            width: 90,
            render: (_, r) => <Tag color={r.Enabled === 1 ? 'green' : 'default'}>{t(r.Enabled === 1 ? 'alarm:type.valid' : 'alarm:type.invalid')}</Tag>,
          },
          {
            key: 'actions',
            title: t('alarm:actions'),
            width: 160,
            fixed: 'right',
            render: (_, r) =>
              mayEdit && (
              <RowActions
                actions={catalogueActions(t, { name: r.Name, onEdit: () => setEditing({ item: r }), remove: () => call('/ExceptionMessage/DeleteExceptionType', { Id: r.Id }) }).filter(
                  (a) => a.key !== 'delete' || !ALWAYS_ON_ALARM_CODES.includes(r.Code),
                )}
                invalidate={[ALARM_KEY]}
              />
            ),
          },
        ]}
      />
      <FormDialog
        open={editing !== null}
        width={720}
        title={t(editing?.item ? 'alarm:type.edit' : 'alarm:type.add')}
        schema={saveAlarmTypeRequest}
        initial={editing?.item ? { ...editing.item } : { Level: 1, RingType: 2, PagePush: 1, Enabled: 1, Category: 'device', MinValue: null, MaxValue: null }}
        submit={(v: z.input<typeof saveAlarmTypeRequest>) => call('/ExceptionMessage/saveExceptionType', v)}
        invalidate={[ALARM_KEY]}
        onClose={() => setEditing(null)}
        fields={
          <>
            <Row gutter={16}>
              <Col span={6}>
                <Form.Item name="Code" label={t('alarm:type.code')} required>
                  <InputNumber min={1} max={9999} style={{ width: '100%' }} disabled={alwaysOn} />
                </Form.Item>
              </Col>
              <Col span={9}>
                <Form.Item name="NameZh" label={t('alarm:type.contentZh')} required>
                  <Input maxLength={64} />
                </Form.Item>
              </Col>
              <Col span={9}>
                <Form.Item name="NameEn" label={t('alarm:type.contentEn')} required>
                  <Input maxLength={64} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="DescriptionZh" label={t('alarm:type.descriptionZh')}>
              <Input maxLength={256} />
            </Form.Item>
            <Form.Item name="DescriptionEn" label={t('alarm:type.descriptionEn')}>
              <Input maxLength={256} />
            </Form.Item>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item name="Level" label={t('alarm:type.level')} required>
                  <Select options={levels} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="MinValue" label={t('alarm:type.min')}>
                  <InputNumber style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="MaxValue" label={t('alarm:type.max')}>
                  <InputNumber style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="RingType" label={t('alarm:type.ring')} required>
              <Radio.Group options={rings} />
            </Form.Item>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="PagePush" label={t('alarm:type.pagePush')} required>
                  <Radio.Group options={[{ value: 1, label: t('alarm:yes') }, { value: 2, label: t('alarm:no') }]} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="Enabled" label={t('alarm:type.enabled')} extra={alwaysOn ? t('alarm:type.alwaysOn') : undefined}>
                  <Radio.Group options={[{ value: 1, label: t('alarm:type.valid') }, { value: 2, label: t('alarm:type.invalid'), disabled: alwaysOn }]} />
                </Form.Item>
              </Col>
            </Row>
          </>
        }
      />
    </Card>
  );
}
