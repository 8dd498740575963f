// One device (/devices/detail?imei=): identity, wearer, latest state, recent alarms, command
// history and fences, with links to its history, live track and alarm page.
import { useState } from 'react';
import { PositionText } from '../../components/PositionText';
import { AlarmTimes } from '../alarm/AlarmTimes';
import { Link, useSearchParams } from 'react-router';
import { Badge, Button, Card, Col, Descriptions, Empty, List, Result, Row, Space, Spin, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { State } from '@wt/contract';
import { shownTime } from '../../session/time';
import { ApiError, call } from '../../api/client';
import { errorText } from '../../i18n/errors';
import { USER_DATA } from '../../i18n/texts';
import { CommandDialog, CommandHistory } from './commands/CommandDialog';
import { PersonDialog } from './dialogs/PersonDialog';
import { DEVICE_KEYS } from './queries';
import { RelativeTime, RoleSwatch } from './parts';
import { AlarmMessage } from '../../i18n/AlarmMessage';
import { useCan, useMayOpen } from '../../access/can';

function RecentAlarms({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const alarms = useQuery({
    queryKey: ['devices', 'alarms', imei],
    queryFn: () => call('/ExceptionMessage/allExceptionMsgPage', { Imei: imei, PageNo: 1, PageCount: 5 }),
    retry: false,
  });
  // Alarms come from their own area; where it is not served yet the card says nothing.
  if (alarms.error instanceof ApiError && alarms.error.state === State.NOT_IMPLEMENTED) return null;
  return (
    <Card title={t('devices:detail.alarms')} size="small" extra={<Link to={`/deviceAlarm?imei=${imei}`}>{t('devices:action.alarms')}</Link>}>
      {alarms.error ? (
        <span>{errorText(t, alarms.error)}</span>
      ) : (
        <Table
          size="small"
          rowKey="Id"
          loading={alarms.isLoading}
          pagination={false}
          dataSource={alarms.data?.Items ?? []}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('devices:detail.noAlarms')} /> }}
          columns={[
            { key: 'time', title: t('devices:detail.alarmTime'), render: (_, a) => <AlarmTimes alarm={a} format={shownTime} />, width: 180 },
            { key: 'message', title: t('devices:detail.alarmType'), render: (_, a) => <AlarmMessage messageKey={a.MessageKey} params={a.MessageParams} text={a.Message} /> },
            {
              key: 'status',
              title: t('devices:detail.alarmStatus'),
              width: 100,
              render: (_, a) => <Tag color={a.Status ? 'green' : 'red'}>{t(a.Status ? 'devices:detail.confirmed' : 'devices:detail.unconfirmed')}</Tag>,
            },
          ]}
        />
      )}
    </Card>
  );
}

export default function DeviceDetailPage() {
  const { t } = useTranslation();
  const can = useCan();
  const mayOpen = useMayOpen();
  const [params] = useSearchParams();
  const imei = params.get('imei') ?? '';
  const [dialog, setDialog] = useState<null | 'command' | 'person'>(null);
  const detail = useQuery({ queryKey: DEVICE_KEYS.detail(imei), queryFn: () => call('/Device/DeviceDetail', { Imei: imei }), enabled: /^\d{15}$/.test(imei), retry: false });
  const person = useQuery({ queryKey: ['devices', 'person', imei], queryFn: () => call('/Person/GetPersonProfile', { Imei: imei }), enabled: detail.isSuccess });
  const fences = useQuery({ queryKey: DEVICE_KEYS.fences(imei), queryFn: () => call('/Geofence/fenceGeoList', { Imei: imei }), enabled: detail.isSuccess });

  if (!/^\d{15}$/.test(imei)) return <Result status="info" title={t('devices:detail.noImei')} extra={<Link to="/devices/list">{t('common:back')}</Link>} />;
  if (detail.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (detail.error) return <Result status="warning" title={errorText(t, detail.error)} subTitle={imei} />;
  const d = detail.data!.Item;
  const p = person.data?.Item;
  const none = '—';
  /** A value people typed or named (USER_DATA), or a dash without one. */
  const mark = (v: string | null | undefined) => (v ? <span {...USER_DATA}>{v}</span> : none);

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12} data-testid="device-detail">
      <Card
        title={
          <Space>
            {d.RoleColor ? <RoleSwatch color={d.RoleColor} shape={d.RoleShape ?? 'circle'} title={d.RoleName ?? ''} /> : null}
            <span {...USER_DATA}>{d.Name || d.Imei}</span>
            <Badge status={d.Online ? 'success' : 'default'} text={t(d.Online ? 'devices:status.online' : 'devices:status.offline')} />
          </Space>
        }
        extra={
          <Space wrap>
            {can('device.command') && (
              <Button type="primary" onClick={() => setDialog('command')} data-testid="detail-command">
                {t('devices:action.command')}
              </Button>
            )}
            <Link to={`/devices/history?imei=${imei}`}>{t('devices:action.history')}</Link>
            {mayOpen('/track/index') && <Link to={`/track/index?imei=${imei}`}>{t('devices:action.track')}</Link>}
            <Link to={`/deviceAlarm?imei=${imei}`}>{t('devices:action.alarms')}</Link>
            <Link to={`/deviceFence?imei=${imei}`}>{t('devices:action.fences')}</Link>
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} title={t('devices:detail.identity')}>
          <Descriptions.Item label="IMEI">{d.Imei}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.model')}>{mark(d.Model)}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.account')}>{mark(d.AccountName)}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.status')}>{t(d.Bound ? 'devices:status.bound' : 'devices:status.unbound')}</Descriptions.Item>
          <Descriptions.Item label="ICCID">{d.Iccid || none}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.softwareVersion')}>{d.SoftwareVersion || none}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.group')}>{mark(d.GroupName)}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.role')}>{mark(d.RoleName)}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.stockIn')}>{shownTime(d.StockInTime) || none}</Descriptions.Item>
          <Descriptions.Item label={t('devices:field.activation')}>{shownTime(d.ActivationTime) || none}</Descriptions.Item>
        </Descriptions>
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} title={t('devices:detail.state')} style={{ marginTop: 12 }}>
          <Descriptions.Item label={t('devices:field.lastCommunication')}>
            <RelativeTime value={d.LastCommunication} />
          </Descriptions.Item>
          <Descriptions.Item label={t('devices:detail.position')}>
            {d.LastLocation ? (
              <>
                <PositionText lat={d.LastLocation.Lat} lon={d.LastLocation.Lon} time={d.LastLocation.Time} /> ({shownTime(d.LastLocation.Time)})
              </>
            ) : (
              none
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('devices:detail.battery')}>{d.Battery === null ? none : `${d.Battery}%`}</Descriptions.Item>
          <Descriptions.Item label={t('devices:detail.signal')}>{d.Signal ?? none}</Descriptions.Item>
          <Descriptions.Item label={t('devices:detail.steps')}>{d.Steps ?? none}</Descriptions.Item>
          <Descriptions.Item label={t('devices:detail.functions')}>
            {Object.entries(d.ModelFunctions)
              .filter(([, on]) => on)
              .map(([f]) => (
                <Tag key={f}>{t(`model:functions.${f}`, { defaultValue: f })}</Tag>
              ))}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={12}>
        <Col xs={24} xl={12}>
          <Card title={t('devices:detail.person')} size="small" extra={can('device.edit') && <Button type="link" size="small" onClick={() => setDialog('person')}>{t('devices:detail.editPerson')}</Button>}>
            <Descriptions size="small" column={2}>
              <Descriptions.Item label={t('devices:person.name')}>{mark(p?.Name)}</Descriptions.Item>
              <Descriptions.Item label={t('devices:person.gender')}>{p?.Gender ? t(`devices:person.genders.${p.Gender}`) : none}</Descriptions.Item>
              <Descriptions.Item label={t('devices:person.age')}>{p?.Age ?? none}</Descriptions.Item>
              <Descriptions.Item label={t('devices:person.bloodType')}>{p?.BloodType ?? none}</Descriptions.Item>
              <Descriptions.Item label={t('devices:person.phone')}>{p?.Phone || none}</Descriptions.Item>
              <Descriptions.Item label={t('devices:person.email')}>{mark(p?.Email)}</Descriptions.Item>
              <Descriptions.Item label={t('devices:person.address')} span={2}>
                {mark(p?.Address)}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('devices:detail.fences')} size="small" extra={<Link to={`/deviceFence?imei=${imei}`}>{t('devices:action.fences')}</Link>}>
            <List
              size="small"
              dataSource={fences.data?.Items ?? []}
              locale={{ emptyText: t('devices:fences.none') }}
              renderItem={(f) => (
                <List.Item>
                  <Space>
                    <span {...USER_DATA}>{f.Name}</span>
                    <Tag>{t(`devices:fences.${f.Type}`)}</Tag>
                    {f.Inside === null ? null : <Tag color={f.Inside ? 'green' : 'orange'}>{t(f.Inside ? 'devices:fences.inside' : 'devices:fences.outside')}</Tag>}
                  </Space>
                </List.Item>
              )}
            />
          </Card>
        </Col>
      </Row>
      <RecentAlarms imei={imei} />
      <Card title={t('devices:detail.commands')} size="small">
        <CommandHistory imei={imei} pageSize={10} />
      </Card>
      <CommandDialog device={dialog === 'command' ? d : null} onClose={() => setDialog(null)} />
      <PersonDialog device={dialog === 'person' ? d : null} onClose={() => setDialog(null)} />
    </Space>
  );
}
