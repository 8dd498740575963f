// Creating or changing an account fence: name, watched accounts, alarm type, shape and schedule,
// with the map beside the form to draw the polygon or circle or to see the chosen district. The
// contract's schema checks the whole fence before it is sent (a self-crossing polygon is refused
// at its field as soon as it is drawn); the server's refusals go under their fields.
import { useMemo, useState } from 'react';
import {
  Button,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Space,
  Switch,
  Typography,
  type FormInstance,
} from 'antd';
import { BorderOutlined, RadiusSettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { accountFence as schemas, fence as fenceSchemas } from '@wt/contract';

const { MAX_FENCE_RADIUS } = fenceSchemas;
import { call } from '../../../api/client';
import { FormDialog } from '../../../patterns';
import type { FenceShape } from '../../devices/fence/geometry';
import { AccountFenceMap, type DrawMode } from './AccountFenceMap';
import { DistrictPicker } from './district';
import type { MapAccountFence } from './FenceLayers';
import { ACCOUNT_FENCE_KEYS, useWatchedPositions, type AccountFence, type FenceType } from './queries';
import { ScheduleInput } from './ScheduleInput';
import { AccountTreeSelect, type KnownAccount } from '../../../components/AccountTreeSelect';

type CreateValues = z.input<typeof schemas.createAccountFenceRequest>;
export type FenceValues = CreateValues & { FenceId?: number };

/** The request of a form's values: only the fields of the chosen shape. */
export function fenceBody(v: FenceValues): FenceValues {
  const body: FenceValues = {
    ...(v.FenceId !== undefined ? { FenceId: v.FenceId } : {}),
    ...(v.UserId !== undefined ? { UserId: v.UserId } : {}),
    Name: typeof v.Name === 'string' ? v.Name.trim() : v.Name,
    UserIds: v.UserIds ?? [],
    IncludeChildren: !!v.IncludeChildren,
    AlarmType: v.AlarmType,
    Type: v.Type,
    Schedule: v.Schedule ?? null,
  };
  if (v.Type === 'polygon') body.Points = v.Points ?? [];
  else if (v.Type === 'circle')
    Object.assign(body, { Lat: v.Lat ?? undefined, Lon: v.Lon ?? undefined, Radius: v.Radius ?? undefined });
  else if (v.Type === 'district') body.DistrictCode = v.DistrictCode;
  return body;
}

/** The polygon's vertices as the form holds them: a count, or a hint to draw. */
function PointsInput({
  value,
  onDraw,
  drawing,
}: {
  value?: { Lat: number; Lon: number }[];
  onDraw: () => void;
  drawing: boolean;
}) {
  const { t } = useTranslation('accountFence');
  const n = value?.length ?? 0;
  return (
    <Space wrap>
      <Button
        icon={<BorderOutlined />}
        type={drawing ? 'primary' : 'default'}
        onClick={onDraw}
        data-testid="fence-draw-polygon"
      >
        {t(n ? 'form.redrawPolygon' : 'form.drawPolygon')}
      </Button>
      <Typography.Text type={n ? undefined : 'secondary'} data-testid="fence-points">
        {drawing ? t('form.polygonHint') : n ? t('form.pointsDrawn', { count: n }) : t('form.noPolygon')}
      </Typography.Text>
    </Space>
  );
}

function FenceFields({
  form,
  known,
  others,
}: {
  form: FormInstance;
  known: KnownAccount[];
  others: readonly AccountFence[];
}) {
  const { t } = useTranslation('accountFence');
  const [drawMode, setDrawMode] = useState<DrawMode>(null);
  const type = Form.useWatch<FenceType | undefined>('Type', { form, preserve: true });
  const points = Form.useWatch('Points', { form, preserve: true });
  const lat = Form.useWatch('Lat', { form, preserve: true });
  const lon = Form.useWatch('Lon', { form, preserve: true });
  const radius = Form.useWatch('Radius', { form, preserve: true });
  const district = Form.useWatch('DistrictCode', { form, preserve: true });
  const name = Form.useWatch('Name', { form, preserve: true });
  const watched = Form.useWatch<number[] | undefined>('UserIds', { form, preserve: true });
  const fenceId = form.getFieldValue('FenceId') as number | undefined;
  const owner = form.getFieldValue('UserId') as number | undefined;
  // With no shape yet, the map opens at the devices of the watched accounts (else the owner's).
  const home = useWatchedPositions(watched, owner);
  const homeKey = (watched ?? []).join(',');

  const editing = useMemo<MapAccountFence | null>(
    () =>
      type
        ? {
            FenceId: fenceId ?? -1,
            Name: name ?? '',
            Type: type,
            Points: points,
            Lat: lat,
            Lon: lon,
            Radius: radius,
            DistrictCode: district,
          }
        : null,
    [fenceId, name, type, points, lat, lon, radius, district],
  );

  const drawn = (s: FenceShape) => {
    setDrawMode(null);
    if (s.Type === 'polygon') {
      const crosses = schemas.ringSelfIntersects(s.Points);
      form.setFields([
        {
          name: 'Points',
          value: s.Points,
          errors: crosses ? [t('messages:accountFence.selfIntersecting')] : [],
        },
      ]);
    } else {
      form.setFields([
        { name: 'Lat', value: s.Lat, errors: [] },
        { name: 'Lon', value: s.Lon, errors: [] },
        { name: 'Radius', value: s.Radius, errors: [] },
      ]);
    }
  };

  return (
    <Row gutter={16}>
      <Col span={11}>
        <Form.Item name="Name" label={t('fields.name')} required>
          <Input maxLength={64} data-testid="fence-name" />
        </Form.Item>
        <Form.Item name="UserIds" label={t('fields.accounts')} required>
          <AccountTreeSelect
            known={known}
            placeholder={t('form.accountsPlaceholder')}
            noMatchText={t('form.noAccount')}
            testId="fence-accounts"
          />
        </Form.Item>
        <Form.Item
          name="IncludeChildren"
          label={t('fields.includeChildren')}
          valuePropName="checked"
          extra={t('form.includeChildrenHint')}
        >
          <Switch data-testid="fence-children" />
        </Form.Item>
        <Form.Item name="AlarmType" label={t('fields.alarmType')} required>
          <Radio.Group
            options={schemas.ACCOUNT_FENCE_ALARM_TYPES.map((a) => ({
              value: a,
              label: t(`alarmTypes.${a}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="Type" label={t('fields.shape')} required>
          <Radio.Group
            optionType="button"
            onChange={() => setDrawMode(null)}
            options={schemas.ACCOUNT_FENCE_TYPES.map((s) => ({ value: s, label: t(`types.${s}`) }))}
            data-testid="fence-type"
          />
        </Form.Item>
        {type === 'polygon' ? (
          <Form.Item name="Points" label={t('form.polygon')} required>
            <PointsInput
              drawing={drawMode === 'polygon'}
              onDraw={() => setDrawMode(drawMode === 'polygon' ? null : 'polygon')}
            />
          </Form.Item>
        ) : null}
        {type === 'circle' ? (
          <>
            <Form.Item label={t('form.circle')} style={{ marginBottom: 8 }}>
              <Button
                icon={<RadiusSettingOutlined />}
                type={drawMode === 'circle' ? 'primary' : 'default'}
                onClick={() => setDrawMode(drawMode === 'circle' ? null : 'circle')}
                data-testid="fence-draw-circle"
              >
                {t('form.drawCircle')}
              </Button>
              {drawMode === 'circle' ? (
                <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                  {t('form.circleHint')}
                </Typography.Text>
              ) : null}
            </Form.Item>
            <Space align="start" wrap>
              <Form.Item name="Lat" label={t('form.lat')} required>
                <InputNumber
                  min={-90}
                  max={90}
                  step={0.0001}
                  style={{ width: 130 }}
                  data-testid="fence-lat"
                />
              </Form.Item>
              <Form.Item name="Lon" label={t('form.lon')} required>
                <InputNumber
                  min={-180}
                  max={180}
                  step={0.0001}
                  style={{ width: 130 }}
                  data-testid="fence-lon"
                />
              </Form.Item>
              <Form.Item name="Radius" label={t('form.radius')} required>
                <InputNumber
                  min={1}
                  max={MAX_FENCE_RADIUS}
                  step={50}
                  style={{ width: 120 }}
                  suffix="m"
                  data-testid="fence-radius"
                />
              </Form.Item>
            </Space>
          </>
        ) : null}
        {type === 'district' ? (
          <Form.Item name="DistrictCode" label={t('form.district')} required extra={t('form.districtHint')}>
            <DistrictPicker />
          </Form.Item>
        ) : null}
        <Form.Item name="Schedule" label={t('fields.schedule')}>
          <ScheduleInput />
        </Form.Item>
      </Col>
      <Col span={13}>
        {/* The map stays in sight while the form scrolls. */}
        <div style={{ position: 'sticky', top: 0 }}>
          <AccountFenceMap
            id="account-fence-edit"
            fences={others}
            editing={editing}
            drawMode={drawMode}
            onDrawn={drawn}
            home={home.data}
            focusKey={`${type ?? ''}:${district ?? ''}:${homeKey}:${home.data ? 'home' : ''}`}
            height={560}
          />
        </div>
      </Col>
    </Row>
  );
}

export function AccountFenceDialog({
  fence,
  owner,
  others = [],
  open,
  onClose,
}: {
  /** The other fences of the list, drawn for orientation. */
  others?: readonly AccountFence[];
  /** The fence changed, or null for a new one. */
  fence: AccountFence | null;
  /** The owner account of a new fence (the account the page is showing), the caller's by default. */
  owner?: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('accountFence');
  const initial: Partial<Record<keyof FenceValues, unknown>> = fence
    ? {
        FenceId: fence.FenceId,
        Name: fence.Name,
        UserIds: fence.Accounts.map((a) => a.UserId),
        IncludeChildren: fence.IncludeChildren,
        AlarmType: fence.AlarmType,
        Type: fence.Type,
        Points: fence.Points,
        Lat: fence.Lat ?? undefined,
        Lon: fence.Lon ?? undefined,
        Radius: fence.Radius ?? undefined,
        DistrictCode: fence.DistrictCode ?? undefined,
        Schedule: fence.Schedule,
      }
    : {
        ...(owner !== undefined ? { UserId: owner } : {}),
        Name: '',
        UserIds: [],
        IncludeChildren: false,
        AlarmType: 3,
        Type: 'polygon',
        Schedule: null,
      };
  const known = fence?.Accounts ?? [];
  const around = fence ? others.filter((f) => f.FenceId !== fence.FenceId) : others;
  return (
    <FormDialog<FenceValues>
      open={open}
      title={t(fence ? 'form.editTitle' : 'form.addTitle')}
      width={1160}
      schema={fence ? schemas.editAccountFenceRequest : schemas.createAccountFenceRequest}
      initial={initial}
      transform={fenceBody}
      submit={(v) =>
        v.FenceId !== undefined
          ? call('/Geofence/EditGeofence', v as z.input<typeof schemas.editAccountFenceRequest>)
          : call('/Geofence/CreateGeofence', v)
      }
      successMessage={t('saved')}
      invalidate={[ACCOUNT_FENCE_KEYS.all]}
      onClose={onClose}
      testId="account-fence-form"
      fields={(form) => <FenceFields form={form} known={known} others={around} />}
    />
  );
}
