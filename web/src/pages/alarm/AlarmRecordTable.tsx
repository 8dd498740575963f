// The alarm records list, used by /alarm/record (every device of the subtree) and by the
// single-device alarm page: filters, confirm one, confirm all of today's with a remark (of the one
// device on its page), where it happened on the monitor, who confirmed it and when, export.
import { useEffect, useState } from 'react';
import { PositionText } from '../../components/PositionText';
import { AlarmTimes } from './AlarmTimes';
import { App, Button, DatePicker, Input, Select, Space, Tag, Typography } from 'antd';
import { CheckCircleOutlined, EnvironmentOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { ALARM_STATES, type AlarmRecord, type AlarmState } from '@wt/contract';
import { AlarmStateTag, AlarmTimelineDrawer, AssignAlarmDialog, CommentAlarmDialog, ResolveAlarmDialog } from './AlarmLife';
import { call } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { userDataCell } from '../../i18n/texts';
import { useRealtime } from '../../realtime/store';
import { afterAlarmsConfirmed } from './confirm';
import { ConfirmAlarmDialog } from './ConfirmAlarmDialog';
import { ALARM_KEY, useAlarmTypeName, useAlarmTypes } from './queries';
import { ExportButton } from '../../components/ExportButton';
import { useCan } from '../../access/can';
import { AlarmMessage } from '../../i18n/AlarmMessage';
import { wallClock } from '../../session/time';

interface Search {
  Range?: [Dayjs, Dayjs];
  Type?: number;
  Status?: number;
  State?: AlarmState;
  Imei?: string;
}

function filterOf(s: Search, fixed: { DeviceId?: number; Imei?: string }) {
  return {
    StartTime: s.Range?.[0] ? wallClock(s.Range[0].startOf('day')) : undefined,
    EndTime: s.Range?.[1] ? wallClock(s.Range[1].endOf('day')) : undefined,
    Type: s.Type,
    Status: s.Status,
    State: s.State,
    Imei: fixed.Imei ?? s.Imei,
    DeviceId: fixed.DeviceId,
  };
}

export function AlarmRecordTable({ deviceId, imei }: { deviceId?: number; imei?: string }) {
  const { t } = useTranslation();
  const can = useCan();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const typeName = useAlarmTypeName();
  const types = useAlarmTypes();
  const [search, setSearch] = useState<Search>({});
  const [confirming, setConfirming] = useState<{ record?: AlarmRecord } | null>(null);
  const [acting, setActing] = useState<{ action: 'resolve' | 'assign' | 'comment' | 'timeline'; record: AlarmRecord } | null>(null);
  const actingOn = (action: 'resolve' | 'assign' | 'comment' | 'timeline') => (acting?.action === action ? acting.record : null);
  const single = Boolean(imei || deviceId);
  const fixed = { DeviceId: deviceId, Imei: imei };
  // A new alarm on the realtime socket refreshes the list, so the page is live without polling.
  const latest = useRealtime((s) => s.alarms[0]?.key);
  useEffect(() => {
    if (latest) void qc.invalidateQueries({ queryKey: [...ALARM_KEY, 'records'] });
  }, [latest, qc]);
  const filter = filterOf(search, fixed);

  const submitConfirm = async (remark: string) => {
    const one = confirming?.record;
    if (one) {
      await call('/ExceptionMessage/updateExceptionByID', { Id: one.Id, Remark: remark });
      message.success(t('alarm:record.confirmedOne'));
      await afterAlarmsConfirmed(qc, { alarms: [{ deviceId: one.DeviceId, type: one.Type }] });
      return;
    }
    // The single-device page confirms that device's alarms only; the record page asks for all of today's.
    const scope = imei ? { Imei: imei } : deviceId ? { DeviceId: deviceId } : {};
    const r = await call('/ExceptionMessage/UpdateExceptionMessageStatus', { ...scope, AllToday: true, Remark: remark });
    message.success(t('alarm:record.confirmedMany', { count: r.Count }));
    await afterAlarmsConfirmed(qc, single ? { device: { id: deviceId, imei } } : { all: true });
  };

  return (
    <>
      <SearchForm<Search>
        onSearch={setSearch}
        fields={[
          { name: 'Range', label: t('alarm:record.time'), input: <DatePicker.RangePicker allowClear /> },
          {
            name: 'Type',
            label: t('alarm:record.type'),
            input: (
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 180 }}
                options={(types.data ?? []).map((x) => ({ value: x.Code, label: typeName(x.Code) }))}
              />
            ),
          },
          {
            name: 'Status',
            label: t('alarm:record.status'),
            input: (
              <Select
                allowClear
                style={{ width: 120 }}
                options={[
                  { value: 0, label: t('alarm:status.0') },
                  { value: 1, label: t('alarm:status.1') },
                ]}
              />
            ),
          },
          {
            name: 'State',
            label: t('alarm:life.stateFilter'),
            input: (
              <Select
                allowClear
                style={{ width: 170 }}
                data-testid="state-filter"
                options={ALARM_STATES.map((st) => ({ value: st, label: t(`alarm:life.state.${st}`) }))}
              />
            ),
          },
          ...(imei || deviceId ? [] : [{ name: 'Imei', label: t('alarm:record.device'), input: <Input allowClear placeholder={t('alarm:record.devicePlaceholder')} style={{ width: 200 }} /> }]),
        ]}
      />
      <DataTable<AlarmRecord>
        queryKey={[...ALARM_KEY, 'records', deviceId ?? imei ?? 'all']}
        params={filter}
        rowKey="Id"
        scrollX={2215}
        testId="alarm-records"
        fetch={(q, p) => call('/ExceptionMessage/allExceptionMsgPage', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) })}
        toolbar={
          <>
            {can('alarm.confirm') && (
              <Button type="primary" icon={<CheckCircleOutlined />} onClick={() => setConfirming({})} data-testid="confirm-today">
                {t(single ? 'alarm:record.confirmDeviceToday' : 'alarm:record.confirmToday')}
              </Button>
            )}
            {can('alarm.export') && (
              <ExportButton path="/export/alarm-records" body={filter} fileName={`${t('alarm:record.fileName')}.xlsx`} label={t('alarm:record.export')} testId="export-alarms" />
            )}
          </>
        }
        columns={[
          { key: 'Created', title: t('alarm:record.time'), render: (_, r) => <AlarmTimes alarm={r} />, width: 175 },
          {
            key: 'Type',
            title: t('alarm:record.type'),
            width: 130,
            render: (_, r) => <Tag color={r.Type === 5 || r.Type >= 150 ? 'red' : 'orange'}>{typeName(r.Type)}</Tag>,
          },
          {
            key: 'Message',
            title: t('alarm:record.message'),
            width: 200,
            render: (_, r) => (
              <span>
                <AlarmMessage messageKey={r.MessageKey} params={r.MessageParams} text={r.Message} />
                {r.Count > 1 ? <Typography.Text type="secondary"> ×{r.Count}</Typography.Text> : null}
              </span>
            ),
          },
          {
            key: 'Status',
            title: t('alarm:record.status'),
            width: 90,
            render: (_, r) => <Tag color={r.Status === 1 ? 'green' : 'red'}>{t(`alarm:status.${r.Status}`)}</Tag>,
          },
          { key: 'State', title: t('alarm:life.stateFilter'), width: 140, render: (_, r) => <AlarmStateTag state={r.State} /> },
          { key: 'Assignee', title: t('alarm:life.assignee'), width: 120, render: (_, r) => r.AssigneeName ?? '-', onCell: userDataCell },
          { key: 'Imei', title: 'IMEI', dataIndex: 'Imei', width: 150 },
          { key: 'DeviceName', title: t('alarm:record.deviceName'), dataIndex: 'DeviceName', width: 130, onCell: userDataCell },
          { key: 'AccountName', title: t('alarm:record.account'), dataIndex: 'AccountName', width: 130, onCell: userDataCell },
          { key: 'Model', title: t('alarm:record.model'), dataIndex: 'Model', width: 130, onCell: userDataCell },
          {
            key: 'Position',
            title: t('alarm:record.position'),
            width: 190,
            render: (_, r) =>
              r.Lat !== null && r.Lon !== null ? (
                <Link
                  to={`/?device=${r.DeviceId}&lat=${r.Lat}&lon=${r.Lon}`}
                  title={t('alarm:record.onMap')}
                  data-testid="alarm-position"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  <EnvironmentOutlined /> <PositionText lat={r.Lat} lon={r.Lon} />
                </Link>
              ) : (
                <Typography.Text type="secondary">-</Typography.Text>
              ),
          },
          { key: 'ConfirmedBy', title: t('alarm:record.confirmedBy'), width: 120, render: (_, r) => r.ConfirmedBy ?? '-', onCell: userDataCell },
          { key: 'ConfirmedAt', title: t('alarm:record.confirmedAt'), width: 165, render: (_, r) => r.ConfirmedAt ?? '-' },
          { key: 'Remark', title: t('alarm:record.remark'), dataIndex: 'Remark', width: 160, ellipsis: true, onCell: userDataCell },
          {
            key: 'actions',
            title: t('alarm:actions'),
            width: 240,
            fixed: 'right',
            render: (_, r) => (
              <Space size={0} wrap>
                {r.Status === 0 && can('alarm.confirm') ? (
                  <Button type="link" size="small" onClick={() => setConfirming({ record: r })} data-testid="confirm-one">
                    {t('alarm:record.confirm')}
                  </Button>
                ) : null}
                {r.State !== 'resolved' && can('alarm.confirm') ? (
                  <Button type="link" size="small" onClick={() => setActing({ action: 'resolve', record: r })} data-testid="resolve-one">
                    {t('alarm:life.resolve')}
                  </Button>
                ) : null}
                {can('alarm.confirm') ? (
                  <>
                    <Button type="link" size="small" onClick={() => setActing({ action: 'assign', record: r })} data-testid="assign-one">
                      {t('alarm:life.assign')}
                    </Button>
                    <Button type="link" size="small" onClick={() => setActing({ action: 'comment', record: r })} data-testid="comment-one">
                      {t('alarm:life.comment')}
                    </Button>
                  </>
                ) : null}
                <Button type="link" size="small" onClick={() => setActing({ action: 'timeline', record: r })} data-testid="timeline-one">
                  {t('alarm:life.timeline')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <ConfirmAlarmDialog
        open={confirming !== null}
        title={t(confirming?.record ? 'alarm:record.confirmOneTitle' : single ? 'alarm:record.confirmDeviceTitle' : 'alarm:record.confirmTodayTitle', { device: imei ?? `#${deviceId}` })}
        hint={confirming?.record ? undefined : t(single ? 'alarm:record.confirmDeviceHint' : 'alarm:record.confirmTodayHint', { device: imei ?? `#${deviceId}` })}
        onSubmit={submitConfirm}
        onClose={() => setConfirming(null)}
      />
      <ResolveAlarmDialog alarm={actingOn('resolve')} onClose={() => setActing(null)} />
      <AssignAlarmDialog alarm={actingOn('assign')} onClose={() => setActing(null)} />
      <CommentAlarmDialog alarm={actingOn('comment')} onClose={() => setActing(null)} />
      <AlarmTimelineDrawer alarm={actingOn('timeline')} onClose={() => setActing(null)} />
    </>
  );
}
