// Calibration of a floor's distance model from its anchors hearing each other: the server fits the
// path-loss exponent n and each anchor's RSSI at 1 m to what the anchors reported of one another
// (the known distances between them), changing nothing; the page shows the fit against the values
// in force (RMS error in dB and in metres, before -> after, per-anchor RSSI@1m) and applies it on
// demand. A refusal (too few pairs heard) is shown with its message.
import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Space, Table, Typography } from 'antd';
import { ExperimentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../i18n/errors';
import { useAction } from '../../patterns';
import { SCENE_KEY, type Calibration } from './queries';

const arrow = (before: number, after: number, digits: number) => `${before.toFixed(digits)} → ${after.toFixed(digits)}`;

export function CalibrationPanel({ floorId, exponent, mayEdit }: { floorId: number; exponent: number; mayEdit: boolean }) {
  const { t } = useTranslation('scene');
  const [fit, setFit] = useState<Calibration | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const calibrate = useAction(() => call('/Scene/Calibrate', { FloorId: floorId }), {
    onDone: (r) => {
      setRefusal(null);
      setFit(r.Item);
    },
    onError: (e) => {
      setFit(null);
      setRefusal(errorText(t, e));
      return true;
    },
  });
  const apply = useAction(
    (c: Calibration) =>
      call('/Scene/ApplyCalibration', {
        FloorId: c.FloorId,
        Exponent: c.Exponent,
        Anchors: c.Anchors.map((a) => ({ BeaconId: a.BeaconId, Rssi1m: a.Rssi1m })),
      }),
    { success: t('calibration.applied'), invalidate: [SCENE_KEY], onDone: () => setFit(null) },
  );

  return (
    <Card
      size="small"
      title={t('calibration.title')}
      data-testid="calibration-panel"
      extra={
        <Button
          icon={<ExperimentOutlined />}
          loading={calibrate.busy}
          disabled={!mayEdit}
          onClick={() => void calibrate.run()}
          data-testid="calibration-run"
        >
          {t('calibration.run')}
        </Button>
      }
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('calibration.hint', { exponent: exponent.toFixed(2) })}</Typography.Text>
        {refusal ? <Alert type="warning" showIcon title={refusal} data-testid="calibration-refused" /> : null}
        {fit ? (
          <>
            <Descriptions size="small" column={1} bordered data-testid="calibration-result">
              <Descriptions.Item label={t('calibration.exponent')}>{arrow(exponent, fit.Exponent, 2)}</Descriptions.Item>
              <Descriptions.Item label={t('calibration.rmsDb')}>{arrow(fit.BeforeRmsDb, fit.RmsDb, 2)} dB</Descriptions.Item>
              <Descriptions.Item label={t('calibration.rmsMetres')}>{arrow(fit.BeforeRmsMetres, fit.RmsMetres, 2)} m</Descriptions.Item>
              <Descriptions.Item label={t('calibration.pairs')}>{fit.Pairs}</Descriptions.Item>
            </Descriptions>
            <Table
              size="small"
              rowKey="BeaconId"
              pagination={false}
              scroll={{ y: 220 }}
              dataSource={fit.Anchors}
              data-testid="calibration-anchors"
              columns={[
                { key: 'Name', title: t('anchor.name'), dataIndex: 'Name' },
                { key: 'Rssi1m', title: t('anchor.rssi1m'), render: (_, a) => `${arrow(a.Before, a.Rssi1m, 1)} dBm` },
                { key: 'Pairs', title: t('calibration.pairs'), dataIndex: 'Pairs', width: 70 },
              ]}
            />
            <Space>
              <Button type="primary" loading={apply.busy} onClick={() => void apply.run(fit)} data-testid="calibration-apply">
                {t('calibration.apply')}
              </Button>
              <Button onClick={() => setFit(null)}>{t('calibration.discard')}</Button>
            </Space>
          </>
        ) : null}
      </Space>
    </Card>
  );
}
