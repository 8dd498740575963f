// Locations (/position/fenceList, SPEC §3 Location): a zone drawn on a floor plan or a set of
// beacons, the devices it supervises, the event that raises alarms and an optional schedule; the
// live detail opens on /position/monitorDetail.
import { useState } from 'react';
import { Form, Input, InputNumber, Radio, Space, Tag } from 'antd';
import { DeleteOutlined, EditOutlined, EyeOutlined, PoweroffOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { location as schemas } from '@wt/contract';
import { shownTime } from '../../session/time';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction, type ListQuery } from '../../patterns';
import { userDataCell } from '../../i18n/texts';
import { DeviceIdPicker, SearchSelect } from './SearchSelect';
import { useCan } from '../../access/can';
import { FloorSelect, SceneSelect } from '../scene/SceneSelect';
import { useAllScenes } from '../scene/queries';
import { ZoneEditor } from './locations/ZoneEditor';

type Location = schemas.Location;
type Values = z.input<typeof schemas.updateLocationRequest> & { SceneId?: number };
export const LOCATION_KEYS = { list: ['locations', 'list'] as const };
const INVALIDATE = [['locations']];

function BeaconPicker({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  const { t } = useTranslation();
  return (
    <SearchSelect<number>
      multiple
      queryKey={['beacons', 'pick']}
      search={async (text) =>
        (await call('/Bluetooth/allBTDeviceInfo', { PageNo: 1, PageCount: 50, Keyword: text || undefined, State: 1 })).Items.map((b) => ({
          value: b.BeaconId,
          label: `${b.Name ? `${b.Name} ` : ''}${b.Mac ?? `${b.Code} ${b.Major}/${b.Minor}`}`,
        }))
      }
      value={value}
      onChange={onChange}
      placeholder={t('locations:field.beaconsHint')}
      testId="location-beacons"
    />
  );
}

function DevicePicker({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  const { t } = useTranslation();
  return <DeviceIdPicker value={value} onChange={onChange} placeholder={t('locations:field.devicesHint')} testId="location-devices" />;
}

function LocationDialog({ location, open, onClose }: { location: Location | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const scenes = useAllScenes();
  const sceneOf = (floorId: number | null) => scenes.data?.find((s) => s.Floors.some((f) => f.FloorId === floorId))?.SceneId;
  return (
    <FormDialog<Values>
      open={open}
      width={860}
      title={t(location ? 'locations:edit' : 'locations:add')}
      schema={location ? schemas.updateLocationRequest : schemas.addLocationRequest}
      initial={
        location
          ? {
              LocationId: location.LocationId,
              Name: location.Name,
              Description: location.Description,
              Event: location.Event,
              Kind: location.Kind,
              SceneId: sceneOf(location.FloorId),
              FloorId: location.FloorId ?? undefined,
              Points: location.Points,
              BeaconIds: location.BeaconIds,
              DeviceIds: location.DeviceIds,
              MaxStayMinutes: location.MaxStayMinutes,
            }
          : { Name: '', Description: '', Event: 1, Kind: 1, Points: [], BeaconIds: [], DeviceIds: [], MaxStayMinutes: null }
      }
      transform={({ SceneId: _scene, ...v }) => v}
      submit={({ SceneId: _scene, ...v }) => call(location ? '/Bluetooth/updateBeaconLocationInfo' : '/Bluetooth/AddBeaconLocationInfo', v as z.input<typeof schemas.updateLocationRequest>)}
      invalidate={INVALIDATE}
      onClose={onClose}
      testId="location-form"
      fields={(form) => (
        <>
          <Form.Item name="Name" label={t('locations:field.name')} required>
            <Input maxLength={64} data-testid="location-name" />
          </Form.Item>
          <Form.Item name="Description" label={t('locations:field.description')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="Event" label={t('locations:field.event')} required>
            <Radio.Group options={[1, 2].map((v) => ({ value: v, label: t(`locations:event.${v}`) }))} data-testid="location-event" />
          </Form.Item>
          <Form.Item name="Kind" label={t('locations:field.kind')} required>
            <Radio.Group options={[1, 2].map((v) => ({ value: v, label: t(`locations:kind.${v}`) }))} data-testid="location-kind" />
          </Form.Item>
          <Form.Item noStyle shouldUpdate>
            {() =>
              form.getFieldValue('Kind') === 2 ? (
                <Form.Item name="BeaconIds" label={t('locations:field.beacons')} required>
                  <BeaconPicker />
                </Form.Item>
              ) : (
                <>
                  <Space align="start" wrap>
                    <Form.Item name="SceneId" label={t('locations:field.scene')} required>
                      <SceneSelect onChange={() => undefined} testId="location-scene" />
                    </Form.Item>
                    <Form.Item name="FloorId" label={t('locations:field.floor')} required>
                      <FloorSelect sceneId={form.getFieldValue('SceneId')} onChange={() => undefined} testId="location-floor" />
                    </Form.Item>
                  </Space>
                  <Form.Item name="Points" label={t('locations:field.zone')} required>
                    <ZoneEditor floorId={form.getFieldValue('FloorId')} />
                  </Form.Item>
                </>
              )
            }
          </Form.Item>
          <Form.Item name="DeviceIds" label={t('locations:field.devices')} extra={t('locations:field.devicesExtra')}>
            <DevicePicker />
          </Form.Item>
          <Form.Item name="MaxStayMinutes" label={t('locations:field.maxStay')} extra={t('locations:field.maxStayExtra', { max: schemas.MAX_STAY_MINUTES })}>
            <InputNumber min={1} max={schemas.MAX_STAY_MINUTES} precision={0} addonAfter={t('locations:field.minutes')} style={{ width: 200 }} data-testid="location-max-stay" />
          </Form.Item>
        </>
      )}
    />
  );
}

export default function PositionFenceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayEdit = useCan()('beacon.edit');
  const [editing, setEditing] = useState<{ location: Location | null } | null>(null);
  return (
    <ListPage<Location, { Name?: string; Status?: 1 | 2 }>
      testId="location-table"
      queryKey={LOCATION_KEYS.list}
      fetch={(q: ListQuery<{ Name?: string; Status?: 1 | 2 }>) => call('/Bluetooth/allBeaconLocationList', q)}
      rowKey="LocationId"
      scrollX={1100}
      search={[
        { name: 'Name', type: 'text', label: t('locations:field.name') },
        { name: 'Status', type: 'select', label: t('locations:field.status'), options: [1, 2].map((v) => ({ value: v, label: t(`locations:status.${v}`) })), width: 120 },
      ]}
      toolbar={[addAction(t('locations:add'), () => setEditing({ location: null }), { testId: 'add-location', visible: mayEdit })]}
      actionsColumn={{ title: t('locations:actions'), width: 340, fixed: 'right' }}
      rowActions={(r) => [
        { key: 'detail', label: t('locations:detail'), icon: <EyeOutlined />, testId: `location-detail-${r.LocationId}`, onClick: () => navigate(`/position/monitorDetail?location=${r.LocationId}`) },
        { key: 'edit', visible: mayEdit, label: t('locations:editShort'), icon: <EditOutlined />, onClick: () => setEditing({ location: r }) },
        {
          key: 'status',
          visible: mayEdit,
          label: t(r.Status === 1 ? 'locations:switchOff' : 'locations:switchOn'),
          icon: <PoweroffOutlined />,
          run: () => call('/Bluetooth/updateBeaconLocationStatus', { LocationIds: [r.LocationId], Status: r.Status === 1 ? 2 : 1 }),
          invalidate: INVALIDATE,
        },
        {
          key: 'delete',
          visible: mayEdit,
          label: t('locations:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          confirm: t('locations:confirmDelete', { name: r.Name }),
          run: () => call('/BeaconLocation/Delete', { LocationIds: [r.LocationId] }),
          invalidate: INVALIDATE,
        },
      ]}
      columns={[
        { key: 'Name', title: t('locations:field.name'), dataIndex: 'Name', onCell: userDataCell, width: 150 },
        { key: 'Description', title: t('locations:field.description'), dataIndex: 'Description', onCell: userDataCell, width: 160 },
        { key: 'Event', title: t('locations:field.event'), width: 150, render: (_, r) => t(`locations:event.${r.Event}`) },
        {
          key: 'Kind',
          title: t('locations:field.kind'),
          width: 190,
          onCell: userDataCell,
          render: (_, r) => (r.Kind === 1 ? `${r.SceneName ?? ''} / ${r.FloorName ?? ''}` : t('locations:beaconCount', { count: r.BeaconIds.length })),
        },
        { key: 'Devices', title: t('locations:field.devices'), width: 120, render: (_, r) => (r.DeviceIds.length ? t('locations:deviceCount', { count: r.DeviceIds.length }) : t('locations:allDevices')) },
        { key: 'Inside', title: t('locations:field.inside'), dataIndex: 'Inside', width: 110 },
        { key: 'Status', title: t('locations:field.status'), width: 90, render: (_, r) => <Tag color={r.Status === 1 ? 'green' : 'default'}>{t(`locations:status.${r.Status}`)}</Tag> },
        { key: 'UpdatedAt', title: t('locations:field.updatedAt'), width: 170, render: (_, r) => shownTime(r.UpdatedAt) },
      ]}
    >
      <LocationDialog open={editing !== null} location={editing?.location ?? null} onClose={() => setEditing(null)} />
    </ListPage>
  );
}
