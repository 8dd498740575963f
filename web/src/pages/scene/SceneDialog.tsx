// Adds or edits a scene: its name, where it is (typed, or picked on the outdoor map), address,
// whether it is enabled, the kind of anchors it uses and how positions are computed, its SVG map
// (required when added, kept when not replaced) and an icon. Checked with the contract's schema
// before anything is sent; the server's refusals (the 5 scenes of an owner, a map it cannot read)
// are shown by the dialog.
import { useState } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Select, Switch, type FormInstance } from 'antd';
import { EnvironmentOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { scene } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { AccountSelect } from '../devices/dialogs/AccountSelect';
import { FileInput } from './FileInput';
import { checkIcon, checkSceneMap } from './files';
import { PointPickerMap } from './PointPickerMap';
import { SCENE_KEY, beaconTypeName, methodName, options, type Scene } from './queries';

type AddValues = z.input<typeof scene.addSceneRequest>;
type EditValues = z.input<typeof scene.editSceneRequest>;

/** The fields of a scene as the edit call takes them (the map and icon kept). */
export function sceneEditValues(s: Scene): EditValues {
  return {
    SceneId: s.SceneId,
    Name: s.Name,
    Lat: s.Lat,
    Lon: s.Lon,
    Address: s.Address,
    Enabled: s.Enabled,
    BeaconType: s.BeaconType as EditValues['BeaconType'],
    Method: s.Method as EditValues['Method'],
  };
}

function LocationFields({ form }: { form: FormInstance }) {
  const { t } = useTranslation('scene');
  const [picking, setPicking] = useState(false);
  const lat = Form.useWatch('Lat', form) as number | undefined;
  const lon = Form.useWatch('Lon', form) as number | undefined;
  return (
    <>
      <Row gutter={12} align="bottom">
        <Col span={9}>
          <Form.Item name="Lat" label={t('scene.lat')} required>
            <InputNumber style={{ width: '100%' }} min={-90} max={90} step={0.0001} data-testid="scene-lat" />
          </Form.Item>
        </Col>
        <Col span={9}>
          <Form.Item name="Lon" label={t('scene.lon')} required>
            <InputNumber style={{ width: '100%' }} min={-180} max={180} step={0.0001} data-testid="scene-lon" />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item>
            <Button icon={<EnvironmentOutlined />} onClick={() => setPicking((p) => !p)} data-testid="scene-pick-location" block>
              {picking ? t('scene.pickDone') : t('scene.pick')}
            </Button>
          </Form.Item>
        </Col>
      </Row>
      {picking ? (
        <Form.Item extra={t('scene.pickHint')}>
          <PointPickerMap
            lat={lat}
            lon={lon}
            height={320}
            onPick={(pickedLon, pickedLat) =>
              form.setFieldsValue({ Lat: Number(pickedLat.toFixed(6)), Lon: Number(pickedLon.toFixed(6)) })
            }
          />
        </Form.Item>
      ) : null}
    </>
  );
}

export function SceneDialog({ editing, mayChooseOwner, onClose }: { editing: { item: Scene | null } | null; mayChooseOwner: boolean; onClose: () => void }) {
  const { t } = useTranslation('scene');
  const item = editing?.item ?? null;
  return (
    <FormDialog<AddValues | EditValues>
      open={editing !== null}
      width={760}
      title={t(item ? 'scene.edit' : 'scene.add')}
      schema={item ? scene.editSceneRequest : scene.addSceneRequest}
      testId="scene-form"
      initial={item ? sceneEditValues(item) : { Enabled: true, BeaconType: 1, Method: 2 }}
      submit={(v) => (item ? call('/Scene/editSceneInfo', v as EditValues) : call('/Scene/addSceneInfo', v as AddValues))}
      invalidate={[SCENE_KEY]}
      onClose={onClose}
      fields={(form) => (
        <>
          <Row gutter={12}>
            <Col span={item || !mayChooseOwner ? 24 : 12}>
              <Form.Item name="Name" label={t('scene.name')} required>
                <Input maxLength={64} data-testid="scene-name" />
              </Form.Item>
            </Col>
            {!item && mayChooseOwner ? (
              <Col span={12}>
                <Form.Item name="UserId" label={t('scene.owner')} extra={t('scene.ownerHint', { max: scene.MAX_SCENES })}>
                  <AccountSelect testId="scene-owner" />
                </Form.Item>
              </Col>
            ) : null}
          </Row>
          <LocationFields form={form} />
          <Form.Item name="Address" label={t('scene.address')} required>
            <Input maxLength={200} data-testid="scene-address" />
          </Form.Item>
          <Row gutter={12}>
            <Col span={8}>
              <Form.Item name="BeaconType" label={t('scene.beaconType')} required>
                <Select options={options(scene.SCENE_BEACON_TYPES, (v) => beaconTypeName(t, v))} data-testid="scene-beacon-type" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="Method" label={t('scene.method')} required>
                <Select options={options(scene.SCENE_METHODS, (v) => methodName(t, v))} data-testid="scene-method" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="Enabled" label={t('scene.enabled')} valuePropName="checked">
                <Switch data-testid="scene-enabled" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={12}>
            <Col span={14}>
              <Form.Item
                name="MapSvg"
                label={t('scene.map')}
                required={!item}
                extra={t('scene.mapHint', { max: scene.SCENE_MAP_MAX_BYTES / 1024 / 1024 })}
              >
                <FileInput accept=".svg,image/svg+xml" check={checkSceneMap} currentUrl={item?.MapUrl} testId="scene-map-upload" previewHeight={140} />
              </Form.Item>
            </Col>
            <Col span={10}>
              <Form.Item name="Icon" label={t('scene.icon')} extra={t('scene.iconHint', { max: scene.SCENE_ICON_MAX_BYTES / 1024 })}>
                <FileInput
                  accept=".png,.svg,image/png,image/svg+xml"
                  check={checkIcon}
                  currentUrl={item?.IconUrl}
                  removable={!!item}
                  testId="scene-icon-upload"
                  previewHeight={48}
                />
              </Form.Item>
            </Col>
          </Row>
        </>
      )}
    />
  );
}
