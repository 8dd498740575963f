// A location live (/position/monitorDetail?location=): who is inside now and since when, on the
// floor plan for a zone, and today's entries and exits; asked again every few seconds.
import { Card, Col, Empty, Row, Select, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { shownTime } from '../../session/time';
import { call } from '../../api/client';
import { PlanMarker } from '../../indoor/PlanView';
import { USER_DATA, userDataCell, userDataOptions } from '../../i18n/texts';
import { FloorPlan, ZoneShape } from './locations/ZoneEditor';

const REFRESH_MS = 5000;

export default function MonitorDetailPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('location')) || undefined;
  const all = useQuery({ queryKey: ['locations', 'all'], queryFn: () => call('/Bluetooth/allBeaconLocationList', { PageNo: 1, PageCount: 1000 }) });
  const first = all.data?.Items[0]?.LocationId;
  const chosen = id ?? first;
  const detail = useQuery({
    queryKey: ['locations', 'detail', chosen],
    queryFn: () => call('/BeaconLocation/Detail', { LocationId: chosen! }),
    enabled: !!chosen,
    refetchInterval: REFRESH_MS,
  });
  const d = detail.data;
  const loc = d?.Item;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12}>
      <Card size="small">
        <Space wrap>
          <Typography.Text>{t('locations:field.name')}</Typography.Text>
          <Select<number>
            style={{ minWidth: 260 }}
            value={chosen}
            loading={all.isLoading}
            placeholder={t('locations:pick')}
            onChange={(v) => setParams({ location: String(v) })}
            options={(all.data?.Items ?? []).map((l) => ({ value: l.LocationId, label: l.Name }))}
            {...userDataOptions}
            data-testid="detail-location"
          />
          {loc ? <Tag color={loc.Status === 1 ? 'green' : 'default'}>{t(`locations:status.${loc.Status}`)}</Tag> : null}
          {loc ? <Typography.Text type="secondary">{t(`locations:event.${loc.Event}`)}</Typography.Text> : null}
        </Space>
      </Card>
      {!chosen && !all.isLoading ? (
        <Card>
          <Empty description={t('locations:none')} />
        </Card>
      ) : (
        <>
          <Row gutter={12}>
            <Col span={8}>
              <Card size="small">
                <Statistic title={t('locations:live.insideNow')} value={d?.Inside.length ?? 0} loading={detail.isLoading} data-testid="detail-inside-count" />
              </Card>
            </Col>
            <Col span={8}>
              <Card size="small">
                <Statistic title={t('locations:live.entriesToday')} value={d?.EntriesToday ?? 0} loading={detail.isLoading} data-testid="detail-entries" />
              </Card>
            </Col>
            <Col span={8}>
              <Card size="small">
                <Statistic title={t('locations:live.exitsToday')} value={d?.ExitsToday ?? 0} loading={detail.isLoading} data-testid="detail-exits" />
              </Card>
            </Col>
          </Row>
          <Row gutter={12}>
            {loc?.Kind === 1 ? (
              <Col xs={24} xl={12}>
                <Card size="small" title={<span {...USER_DATA}>{`${loc.SceneName ?? ''} / ${loc.FloorName ?? ''}`}</span>}>
                  <FloorPlan floorId={loc.FloorId ?? undefined} height={420} testId="detail-plan">
                    <ZoneShape points={loc.Points ?? []} />
                    {(d?.Inside ?? [])
                      .filter((x) => x.X !== null && x.Y !== null)
                      .map((x) => (
                        <PlanMarker key={x.DeviceId} at={[x.X!, x.Y!]}>
                          <circle r={7} fill="#52c41a" stroke="#fff" strokeWidth={2} />
                          <text x={10} y={4} fontSize={12} fill="#262626" {...USER_DATA}>
                            {x.Name || x.Imei}
                          </text>
                        </PlanMarker>
                      ))}
                  </FloorPlan>
                </Card>
              </Col>
            ) : null}
            <Col xs={24} xl={loc?.Kind === 1 ? 12 : 24}>
              <Card size="small" title={t('locations:live.insideNow')} style={{ marginBottom: 12 }}>
                <Table
                  size="small"
                  rowKey="DeviceId"
                  pagination={false}
                  data-testid="detail-inside"
                  dataSource={d?.Inside ?? []}
                  loading={detail.isLoading}
                  columns={[
                    { key: 'Name', title: t('locations:live.device'), onCell: userDataCell, render: (_, x) => x.Name || x.Imei },
                    { key: 'Imei', title: 'IMEI', dataIndex: 'Imei' },
                    { key: 'Since', title: t('locations:live.since'), render: (_, x) => shownTime(x.Since) },
                  ]}
                />
              </Card>
              <Card size="small" title={t('locations:live.today')}>
                <Table
                  size="small"
                  rowKey={(x) => `${x.DeviceId}-${x.Time}-${x.Inside}`}
                  pagination={{ pageSize: 10, hideOnSinglePage: true }}
                  data-testid="detail-events"
                  dataSource={d?.Events ?? []}
                  loading={detail.isLoading}
                  columns={[
                    { key: 'Time', title: t('locations:live.time'), render: (_, x) => shownTime(x.Time) },
                    { key: 'Name', title: t('locations:live.device'), onCell: userDataCell, render: (_, x) => x.Name || x.Imei },
                    { key: 'Kind', title: t('locations:live.event'), render: (_, x) => <Tag color={x.Inside ? 'blue' : 'orange'}>{t(x.Inside ? 'locations:live.entered' : 'locations:live.left')}</Tag> },
                  ]}
                />
              </Card>
            </Col>
          </Row>
        </>
      )}
    </Space>
  );
}
