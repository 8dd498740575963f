// The thresholds of trips and stops of the viewer's account (docs/configuration.md, "Reports"): shown
// as in force on the reports page, and set by an administrator in a dialog. An empty field follows the
// account above (or the built-in default), which its placeholder shows.
import { useState } from 'react';
import { Button, InputNumber, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { REPORT_THRESHOLD_KEYS, REPORT_THRESHOLD_LIMITS, report, type ReportThresholdKey } from '@wt/contract';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';

export const REPORT_SETTINGS_KEY = ['report', 'settings'] as const;
type Values = z.input<typeof report.saveReportSettingsRequest>;

const UNIT: Record<ReportThresholdKey, string> = { StopMinutes: 'min', StopRadius: 'm', StopSpeed: 'kmh', GapMinutes: 'min', MinTripMeters: 'm' };

export function ReportThresholds() {
  const { t } = useTranslation('reports');
  const [open, setOpen] = useState(false);
  const q = useQuery({ queryKey: REPORT_SETTINGS_KEY, queryFn: () => call('/Report/Settings', {}) });
  const d = q.data;
  if (!d) return null;
  const value = (k: ReportThresholdKey, n: number) => t(`thresholds.unit.${UNIT[k]}`, { n });
  return (
    <>
      <Typography.Text type="secondary" data-testid="report-thresholds">
        {t('thresholds.summary', {
          minutes: value('StopMinutes', d.Effective.StopMinutes),
          radius: value('StopRadius', d.Effective.StopRadius),
          speed: value('StopSpeed', d.Effective.StopSpeed),
        })}
      </Typography.Text>
      {d.Editable && (
        <Button onClick={() => setOpen(true)} data-testid="report-thresholds-edit">
          {t('thresholds.edit')}
        </Button>
      )}
      <FormDialog<Values>
        open={open}
        title={t('thresholds.title')}
        schema={report.saveReportSettingsRequest}
        testId="report-thresholds-form"
        initial={{ ...d.Own }}
        submit={(v) => call('/Report/SaveSettings', v)}
        invalidate={[REPORT_SETTINGS_KEY, ['report']]}
        onClose={() => setOpen(false)}
        header={<Typography.Paragraph type="secondary">{t('thresholds.hint')}</Typography.Paragraph>}
        fields={REPORT_THRESHOLD_KEYS.map((k) => ({
          name: k,
          label: t(`thresholds.field.${k}`),
          // The limits are the schema's, checked with its message; the field does not clamp what is typed.
          extra: t('thresholds.follows', { value: value(k, d.Inherited[k]), min: REPORT_THRESHOLD_LIMITS[k][0], max: REPORT_THRESHOLD_LIMITS[k][1] }),
          input: (
            <InputNumber
              placeholder={String(d.Inherited[k])}
              style={{ width: '100%' }}
              data-testid={`report-threshold-${k}`}
            />
          ),
        }))}
      />
    </>
  );
}
