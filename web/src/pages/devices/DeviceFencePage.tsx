// Device fences (/deviceFence): pick a device, draw a circle (centre and radius) or a polygon (at
// least 3 points) on the map, name it; at most 10 per device (SPEC §5, §8). List, edit, delete.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, App, Button, Card, Empty, Form, Input, List, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { BorderOutlined, DeleteOutlined, EditOutlined, RadiusSettingOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@wt/contract';
import { call } from '../../api/client';
import { errorText } from '../../i18n/errors';
import { userDataOptions } from '../../i18n/texts';
import { FenceMap } from './fence/FenceMap';
import type { FenceShape } from './fence/geometry';
import { DEVICE_KEYS, type Fence } from './queries';
import { showIssues, showServerFields } from './dialogs/formErrors';
import { useCan } from '../../access/can';

/** Picks a device by IMEI or name, searched on the server. */
export function DevicePicker({ value, onChange }: { value: string | null; onChange: (imei: string) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const found = useQuery({
    queryKey: ['devices', 'pick', search],
    queryFn: () => call('/Device/devicesByUserId', /^\d+$/.test(search) ? { PageNo: 1, PageCount: 20, Imei: search } : { PageNo: 1, PageCount: 20, Name: search || undefined }),
  });
  const options = (found.data?.Items ?? []).map((d) => ({ value: d.Imei, label: `${d.Name || d.Imei} (${d.Imei})` }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      style={{ width: '100%' }}
      placeholder={t('devices:fences.pickDevice')}
      {...userDataOptions}
      value={value ?? undefined}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={found.isFetching}
      options={options}
      data-testid="fence-device"
    />
  );
}

export default function DeviceFencePage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('fence.edit');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const imei = params.get('imei');
  const [form] = Form.useForm();
  const [mode, setMode] = useState<'circle' | 'polygon' | null>(null);
  const [shape, setShape] = useState<FenceShape | null>(null);
  const [editing, setEditing] = useState<Fence | null>(null);
  const [busy, setBusy] = useState(false);

  const detail = useQuery({ queryKey: DEVICE_KEYS.detail(imei ?? ''), queryFn: () => call('/Device/DeviceDetail', { Imei: imei! }), enabled: !!imei });
  const fences = useQuery({ queryKey: DEVICE_KEYS.fences(imei ?? ''), queryFn: () => call('/Geofence/fenceGeoList', { Imei: imei! }), enabled: !!imei });
  const items = fences.data?.Items ?? [];
  const full = items.length >= LIMITS.fencesPerDevice;
  const last = detail.data?.Item.LastLocation;

  const reset = () => {
    setMode(null);
    setShape(null);
    setEditing(null);
    form.resetFields();
  };
  useEffect(reset, [imei, form]);

  const startDraw = (m: 'circle' | 'polygon') => {
    if (!editing && full) {
      message.warning(t('messages:device.fenceLimit', { max: LIMITS.fencesPerDevice }));
      return;
    }
    setShape(null);
    setMode(m);
  };

  const save = async () => {
    if (!imei) return;
    const v = form.getFieldsValue();
    const geometry: FenceShape | null = shape ?? (editing ? (editing.Type === 'circle' ? { Type: 'circle', Lat: editing.Lat!, Lon: editing.Lon!, Radius: editing.Radius! } : { Type: 'polygon', Points: editing.Points }) : null);
    const issues = v.Name?.trim() ? [] : [{ field: 'Name', key: 'device.fenceNameRequired', params: {} }];
    if (showIssues(form, issues, t, ['Name', 'Description'])) return;
    if (!geometry) {
      message.warning(t('devices:fences.drawFirst'));
      return;
    }
    setBusy(true);
    try {
      const body = { Name: v.Name, Description: v.Description ?? '', ...geometry };
      if (editing) await call('/Geofence/updateDeviceGeofence', { ...body, FenceId: editing.FenceId });
      else await call('/Geofence/addDeviceGeofence', { ...body, Imei: imei });
      message.success(t('messages:device.saved'));
      await qc.invalidateQueries({ queryKey: ['devices'] });
      reset();
    } catch (e) {
      if (!showServerFields(form, e, t, ['Name', 'Description'])) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (f: Fence) => {
    try {
      await call('/Geofence/DeleteGeofence', { FenceIds: [f.FenceId] });
      message.success(t('messages:device.deleted'));
      if (editing?.FenceId === f.FenceId) reset();
      await qc.invalidateQueries({ queryKey: ['devices'] });
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const edit = (f: Fence) => {
    setEditing(f);
    setShape(null);
    setMode(null);
    form.setFieldsValue({ Name: f.Name, Description: f.Description });
  };

  const shapeText = shape
    ? shape.Type === 'circle'
      ? t('devices:fences.circleDrawn', { radius: shape.Radius })
      : t('devices:fences.polygonDrawn', { count: shape.Points.length })
    : mode
      ? t(`devices:fences.hint.${mode}`)
      : null;

  return (
    <div style={{ display: 'flex', gap: 12, alignItems: 'stretch' }} className="device-fence-page">
      <Card style={{ width: 360, flex: 'none' }} styles={{ body: { padding: 16 } }}>
        <Space orientation="vertical" style={{ width: '100%' }} size="middle">
          <DevicePicker value={imei} onChange={(v) => setParams({ imei: v })} />
          {imei ? (
            <>
              <Typography.Text type="secondary">{t('devices:fences.count', { count: items.length, max: LIMITS.fencesPerDevice })}</Typography.Text>
              {/* Not rendered at all without fence.edit: a `hidden` attribute loses to the Space's own display. */}
              {mayEdit && (
                <Space>
                  <Button icon={<RadiusSettingOutlined />} type={mode === 'circle' ? 'primary' : 'default'} onClick={() => startDraw('circle')} data-testid="draw-circle">
                    {t('devices:fences.circle')}
                  </Button>
                  <Button icon={<BorderOutlined />} type={mode === 'polygon' ? 'primary' : 'default'} onClick={() => startDraw('polygon')} data-testid="draw-polygon">
                    {t('devices:fences.polygon')}
                  </Button>
                </Space>
              )}
              {shapeText ? <Alert type={shape ? 'success' : 'info'} showIcon title={shapeText} data-testid="fence-shape" /> : null}
              {mayEdit && (
                <Form form={form} layout="vertical" data-testid="fence-form">
                  <Form.Item name="Name" label={t('devices:fences.name')} required>
                    <Input maxLength={64} />
                  </Form.Item>
                  <Form.Item name="Description" label={t('devices:fences.description')}>
                    <Input.TextArea rows={2} maxLength={256} />
                  </Form.Item>
                  <Space>
                    <Button type="primary" loading={busy} onClick={() => void save()} data-testid="fence-save">
                      {t(editing ? 'devices:fences.update' : 'devices:fences.save')}
                    </Button>
                    <Button onClick={reset}>{t('common:cancel')}</Button>
                  </Space>
                </Form>
              )}
              <List
                size="small"
                bordered
                loading={fences.isLoading}
                dataSource={items}
                locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('devices:fences.none')} /> }}
                renderItem={(f) => (
                  <List.Item
                    data-testid={`fence-${f.Name}`}
                    style={editing?.FenceId === f.FenceId ? { background: '#ecf5ff' } : undefined}
                    actions={
                      mayEdit
                        ? [
                            <Button key="e" type="link" size="small" icon={<EditOutlined />} onClick={() => edit(f)} aria-label={t('devices:action.edit')} />,
                            <Popconfirm key="d" title={t('devices:fences.confirmDelete', { name: f.Name })} onConfirm={() => remove(f)}>
                              <Button type="link" size="small" danger icon={<DeleteOutlined />} aria-label={t('devices:action.delete')} />
                            </Popconfirm>,
                          ]
                        : []
                    }
                  >
                    <List.Item.Meta
                      title={
                        <Space size={6}>
                          {f.Name}
                          <Tag>{t(`devices:fences.${f.Type}`)}</Tag>
                          {f.Inside === null ? null : <Tag color={f.Inside ? 'green' : 'orange'}>{t(f.Inside ? 'devices:fences.inside' : 'devices:fences.outside')}</Tag>}
                        </Space>
                      }
                      description={f.Type === 'circle' ? t('devices:fences.radius', { radius: f.Radius }) : t('devices:fences.points', { count: f.Points.length })}
                    />
                  </List.Item>
                )}
              />
            </>
          ) : (
            <Empty description={t('devices:fences.pickDevice')} />
          )}
        </Space>
      </Card>
      <Card style={{ flex: 1, minWidth: 0 }} styles={{ body: { padding: 0 } }}>
        <FenceMap
          fences={items}
          selectedId={editing?.FenceId ?? null}
          device={last ? { Lat: last.Lat, Lon: last.Lon } : null}
          drawMode={mode}
          keepDrawing={shape !== null}
          onDrawn={(s) => {
            setShape(s);
            setMode(null);
          }}
          focusKey={`${imei ?? ''}:${editing?.FenceId ?? ''}:${last ? 'located' : ''}:${fences.isSuccess}`}
          height="calc(100vh - 190px)"
        />
      </Card>
    </div>
  );
}
