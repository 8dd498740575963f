// Escalation policies (/alarm/escalation): for the chosen account, every alarm type with the policy
// in force (its own, one inherited from an account above, or none), and an administrator with
// `alarm.setting` edits the account's own policy (enabled, ordered steps of wait, recipients and
// channels, the last step's repeat and cap) or deletes it (the inherited one applies again).
import { useState } from 'react';
import { Button, Card, Checkbox, Col, Form, InputNumber, Row, Select, Space, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import {
  ESCALATION_CHANNELS,
  ESCALATION_LIMITS,
  escalationSaveRequest,
  type EffectivePolicy,
  type EscalationPolicy,
} from '@wt/contract';
import { call } from '../../api/client';
import { useCan } from '../../access/can';
import { USER_DATA } from '../../i18n/texts';
import { FormDialog, ListPage } from '../../patterns';
import { useSession } from '../../stores/session';
import { AccountSelect } from '../devices/dialogs/AccountSelect';
import { AccountTreeSelect } from '../../components/AccountTreeSelect';
import { ALARM_KEY, useAlarmTypeName } from './queries';

export const ESCALATION_KEY = [...ALARM_KEY, 'escalation'] as const;

type SaveValues = z.input<typeof escalationSaveRequest>;
type Step = EscalationPolicy['Steps'][number];

/** One step as people read it: when, to whom, how. */
export function stepText(t: TFunction, s: Step): string {
  const when = s.Wait === 0 ? t('alarm:escalation.atOnce') : t('alarm:escalation.after', { count: s.Wait });
  const who = [
    ...s.Contacts.map((c) => t('alarm:escalation.contactN', { n: c })),
    ...(s.DutyUsers.length ? [t('alarm:escalation.dutyCount', { count: s.DutyUsers.length })] : []),
    ...(s.Parent ? [t('alarm:escalation.parent')] : []),
  ];
  const how = s.Channels.map((c) => t(`alarm:escalation.channel.${c}`)).join(t('alarm:escalation.listSeparator'));
  return [when, who.join(t('alarm:escalation.listSeparator')), how].filter(Boolean).join(' · ');
}

const NEW_STEP: Step = { Wait: 0, Contacts: [], DutyUsers: [], Parent: false, Channels: ['console'] };

function StepsFields() {
  const { t } = useTranslation();
  const contactOptions = Array.from({ length: ESCALATION_LIMITS.contacts }, (_, i) => ({ value: i + 1, label: t('alarm:escalation.contactN', { n: i + 1 }) }));
  const channelOptions = ESCALATION_CHANNELS.map((c) => ({ value: c, label: t(`alarm:escalation.channel.${c}`) }));
  return (
    <Form.List name="Steps">
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((f, i) => (
            <Card
              key={f.key}
              size="small"
              style={{ marginBottom: 12 }}
              data-testid="escalation-step"
              title={t('alarm:escalation.stepN', { n: i + 1 })}
              extra={
                fields.length > 1 && (
                  <Button type="text" danger size="small" icon={<DeleteOutlined />} aria-label={t('alarm:escalation.removeStep', { n: i + 1 })} onClick={() => remove(f.name)} />
                )
              }
            >
              <Row gutter={12}>
                <Col span={8}>
                  <Form.Item name={[f.name, 'Wait']} label={t('alarm:escalation.wait')} required>
                    <InputNumber min={0} max={ESCALATION_LIMITS.waitMinutes} style={{ width: '100%' }} data-testid={`step-wait-${i}`} />
                  </Form.Item>
                </Col>
                <Col span={16}>
                  <Form.Item name={[f.name, 'Channels']} label={t('alarm:escalation.channels')} required>
                    <Checkbox.Group options={channelOptions} />
                  </Form.Item>
                </Col>
              </Row>
              <Row gutter={12}>
                <Col span={8}>
                  <Form.Item name={[f.name, 'Contacts']} label={t('alarm:escalation.contacts')}>
                    <Select mode="multiple" options={contactOptions} data-testid={`step-contacts-${i}`} />
                  </Form.Item>
                </Col>
                <Col span={10}>
                  <Form.Item name={[f.name, 'DutyUsers']} label={t('alarm:escalation.dutyUsers')}>
                    <AccountTreeSelect chosenLabel="title" placeholder={t('alarm:escalation.dutyUsers')} matchFieldWidth={false} />
                  </Form.Item>
                </Col>
                <Col span={6}>
                  <Form.Item name={[f.name, 'Parent']} label={t('alarm:escalation.recipients')} valuePropName="checked">
                    <Checkbox>{t('alarm:escalation.parent')}</Checkbox>
                  </Form.Item>
                </Col>
              </Row>
            </Card>
          ))}
          {/* Refusals of the steps as a whole (each must wait at least as long as the one before). */}
          <Form.ErrorList errors={errors} />
          {fields.length < ESCALATION_LIMITS.steps && (
            <Button icon={<PlusOutlined />} onClick={() => add({ ...NEW_STEP })} style={{ marginBottom: 16 }} data-testid="escalation-add-step">
              {t('alarm:escalation.addStep')}
            </Button>
          )}
        </>
      )}
    </Form.List>
  );
}

export default function EscalationPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('alarm.setting');
  const me = useSession((s) => s.userInfo?.UserId);
  const typeName = useAlarmTypeName();
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const userId = picked ?? me;
  const [editing, setEditing] = useState<EffectivePolicy | null>(null);

  const source = (r: EffectivePolicy) => {
    if (!r.Policy) return <Tag>{t('alarm:escalation.none')}</Tag>;
    if (!r.Inherited) return <Tag color="blue">{t('alarm:escalation.own')}</Tag>;
    return (
      <Tag color="default">
        {t('alarm:escalation.inheritedFrom')} <span {...USER_DATA}>{r.FromUserName}</span>
      </Tag>
    );
  };

  const initial = (r: EffectivePolicy): SaveValues => {
    const p = r.Policy;
    return {
      UserId: userId,
      AlarmType: r.AlarmType,
      Enabled: p?.Enabled ?? true,
      Steps: p ? p.Steps.map((s) => ({ ...s })) : [{ ...NEW_STEP }],
      RepeatMinutes: p?.RepeatMinutes ?? 0,
      RepeatCap: p?.RepeatCap ?? 0,
    };
  };

  return (
    <ListPage<EffectivePolicy>
      testId="escalation-table"
      queryKey={[...ESCALATION_KEY, userId]}
      paging="client"
      rowKey="AlarmType"
      header={
        <Space style={{ marginBottom: 16 }} wrap>
          <Typography.Text>{t('alarm:escalation.account')}</Typography.Text>
          <div style={{ width: 280 }}>
            <AccountSelect value={userId} onChange={setPicked} testId="escalation-account" />
          </div>
          <Typography.Text type="secondary">{t('alarm:escalation.hint')}</Typography.Text>
        </Space>
      }
      fetch={async () => {
        const r = await call('/Escalation/List', { UserId: userId });
        return { Total: r.Items.length, Items: r.Items };
      }}
      columns={[
        { key: 'AlarmType', title: t('alarm:record.type'), width: 160, render: (_, r) => typeName(r.AlarmType) },
        { key: 'source', title: t('alarm:escalation.source'), width: 180, render: (_, r) => source(r) },
        {
          key: 'Enabled',
          title: t('alarm:escalation.enabled'),
          width: 90,
          render: (_, r) => (r.Policy ? <Tag color={r.Policy.Enabled ? 'green' : 'default'}>{t(r.Policy.Enabled ? 'alarm:yes' : 'alarm:no')}</Tag> : '—'),
        },
        {
          key: 'Steps',
          title: t('alarm:escalation.steps'),
          render: (_, r) =>
            r.Policy ? (
              <ol style={{ margin: 0, paddingInlineStart: 18 }} data-testid="escalation-steps">
                {r.Policy.Steps.map((s, i) => (
                  <li key={i}>{stepText(t, s)}</li>
                ))}
              </ol>
            ) : (
              '—'
            ),
        },
        {
          key: 'Repeat',
          title: t('alarm:escalation.repeat'),
          width: 180,
          render: (_, r) =>
            r.Policy && r.Policy.RepeatMinutes > 0 ? t('alarm:escalation.repeatText', { minutes: r.Policy.RepeatMinutes, cap: r.Policy.RepeatCap }) : '—',
        },
      ]}
      rowActions={(r) => [
        { key: 'edit', label: t('alarm:edit'), visible: mayEdit, testId: `escalation-edit-${r.AlarmType}`, onClick: () => setEditing(r) },
        {
          key: 'delete',
          label: t('alarm:escalation.deleteOwn'),
          danger: true,
          visible: mayEdit && !!r.Policy && !r.Inherited,
          testId: `escalation-delete-${r.AlarmType}`,
          confirm: t('alarm:escalation.confirmDelete', { type: typeName(r.AlarmType) }),
          run: () => call('/Escalation/Delete', { UserId: userId, AlarmType: r.AlarmType }),
          success: t('alarm:escalation.deleted'),
        },
      ]}
    >
      <FormDialog<SaveValues>
        open={editing !== null}
        width={820}
        testId="escalation-form"
        title={editing ? t('alarm:escalation.editTitle', { type: typeName(editing.AlarmType) }) : ''}
        header={
          editing?.Inherited ? (
            <Typography.Paragraph type="secondary">{t('alarm:escalation.startsFromInherited', { name: editing.FromUserName })}</Typography.Paragraph>
          ) : null
        }
        schema={escalationSaveRequest}
        initial={editing ? initial(editing) : {}}
        submit={(v) => call('/Escalation/Save', v)}
        invalidate={[ESCALATION_KEY]}
        onClose={() => setEditing(null)}
        fields={
          <>
            <Form.Item name="Enabled" label={t('alarm:escalation.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <StepsFields />
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item name="RepeatMinutes" label={t('alarm:escalation.repeatMinutes')} extra={t('alarm:escalation.repeatHint')}>
                  <InputNumber min={0} max={ESCALATION_LIMITS.repeatMinutes} style={{ width: '100%' }} data-testid="repeat-minutes" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="RepeatCap" label={t('alarm:escalation.repeatCap')}>
                  <InputNumber min={0} max={ESCALATION_LIMITS.repeatCap} style={{ width: '100%' }} data-testid="repeat-cap" />
                </Form.Item>
              </Col>
            </Row>
          </>
        }
      />
    </ListPage>
  );
}
