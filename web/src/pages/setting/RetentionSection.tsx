// How long positions, health readings and device events are kept, on the platform settings page:
// the platform default (the root account) and a top-level account's override, which its whole
// subtree follows. Only the root account changes them; others see what applies to them.
import { useEffect } from 'react';
import { Alert, Button, Col, Descriptions, Form, InputNumber, Row, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { RETENTION_KINDS, RETENTION_MAX_DAYS, RETENTION_MIN_DAYS, saveRetentionRequest, type RetentionInfo, type RetentionKind } from '@wt/contract';
import { call } from '../../api/client';
import { fieldRule, schemaValidator } from '../../forms/validate';
import { putIssues, serverIssues, useAction } from '../../patterns';

export const RETENTION_KEY = 'retention';

type Values = Record<RetentionKind, number | null>;
const validate = schemaValidator<Values>(saveRetentionRequest);

export function RetentionSection({ userId }: { userId?: number }) {
  const { t } = useTranslation('settings');
  const [form] = Form.useForm<Values>();
  const info = useQuery({ queryKey: [RETENTION_KEY, userId], queryFn: () => call('/Retention/Info', { UserId: userId }), enabled: !!userId });
  const data = info.data;
  useEffect(() => {
    if (data) form.setFieldsValue(data.Own);
  }, [data, form]);

  const save = useAction((v: Values) => call('/Retention/Save', { UserId: userId, ...v }), {
    success: t('retention.saved'),
    invalidate: [[RETENTION_KEY]],
    onError: (err) => {
      const left = putIssues(form, serverIssues(err), t);
      return serverIssues(err).length > 0 && left.length === 0;
    },
  });
  if (!data) return null;
  // What an empty field follows: the built-in days for the platform, the platform's for an account.
  const follows = (k: RetentionKind) => (data.Level === 'platform' ? data.BuiltIn[k] : data.Platform[k]);
  const kindLabel = (k: RetentionKind) => t(`retention.kind.${k}`);

  return (
    <div data-testid="retention-section">
      <Typography.Title level={5}>{t('retention.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`retention.hint.${data.Level}`, { account: data.TopLevelName ?? '' })}</Typography.Paragraph>
      <Descriptions size="small" column={{ xs: 1, md: 3 }} bordered style={{ marginBottom: 16 }} data-testid="retention-effective">
        {RETENTION_KINDS.map((k) => (
          <Descriptions.Item key={k} label={kindLabel(k)}>
            {t('retention.days', { n: data.Effective[k] })}
          </Descriptions.Item>
        ))}
      </Descriptions>
      {data.Level !== 'below' && (
        <Form form={form} layout="vertical" disabled={!data.Editable} onFinish={(v) => void save.run(v)} data-testid="retention-form">
          <Row gutter={16}>
            {RETENTION_KINDS.map((k) => (
              <Col xs={24} md={8} key={k}>
                <Form.Item
                  name={k}
                  label={kindLabel(k)}
                  rules={[fieldRule(validate, form, k, t)]}
                  extra={t(data.Level === 'platform' ? 'retention.emptyBuiltIn' : 'retention.emptyPlatform', { n: follows(k) })}
                >
                  <InputNumber
                    min={RETENTION_MIN_DAYS}
                    max={RETENTION_MAX_DAYS}
                    precision={0}
                    style={{ width: '100%' }}
                    placeholder={String(follows(k))}
                    addonAfter={t('retention.unit')}
                    data-testid={`retention-${k}`}
                  />
                </Form.Item>
              </Col>
            ))}
          </Row>
          {data.Editable ? (
            <Button htmlType="submit" loading={save.busy} data-testid="retention-save">
              {t('retention.save')}
            </Button>
          ) : (
            <Alert type="info" showIcon message={t('retention.rootOnly')} />
          )}
        </Form>
      )}
      <PartitionNote data={data} />
    </div>
  );
}

/** Whole days are dropped at the longest retention in force; shorter ones are deleted row by row. */
function PartitionNote({ data }: { data: RetentionInfo }) {
  const { t } = useTranslation('settings');
  if (data.Level !== 'platform') return null;
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="retention-partitions">
      {t('retention.partitions', {
        positions: data.PartitionDays.Positions,
        health: data.PartitionDays.Health,
        events: data.PartitionDays.Events,
      })}
    </Typography.Paragraph>
  );
}
