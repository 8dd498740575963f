// Adds or edits a floor of a scene: its number (unique in the scene), name, description, type and
// PNG plan (required when added, kept when not replaced). The plan's pixel size is shown as soon
// as it is picked (SPEC §5 recommends 1000×800; other sizes are accepted). The scale and the place
// on the earth are set with their own tools and sent back unchanged here.
import { useState } from 'react';
import { Alert, Col, Form, Input, InputNumber, Row, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { scene } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { FileInput } from './FileInput';
import { checkFloorPlan } from './files';
import { SCENE_KEY, floorTypeName, options, type Floor } from './queries';

type AddValues = z.input<typeof scene.addFloorRequest>;
type EditValues = z.input<typeof scene.editFloorRequest>;

/** SPEC §5's recommended plan size. */
export const RECOMMENDED_PLAN = { width: 1000, height: 800 };

/** A floor as the edit call takes it: every field as stored, the plan kept. */
export function floorEditValues(f: Floor): EditValues {
  return {
    FloorId: f.FloorId,
    FloorNo: f.FloorNo,
    Name: f.Name,
    Description: f.Description,
    Type: f.Type as EditValues['Type'],
    MetresPerPixel: f.MetresPerPixel,
    Geo: f.Geo,
    Exponent: f.Exponent,
  };
}

export function FloorDialog({
  sceneId,
  editing,
  onClose,
}: {
  sceneId: number;
  editing: { item: Floor | null } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('scene');
  const item = editing?.item ?? null;
  // The pixel size of the plan picked in this opening (none: the stored plan's).
  const [picked, setPicked] = useState<{ width: number; height: number } | null>(null);
  const size = picked ?? (item?.PlanUrl ? { width: item.Width, height: item.Height } : null);
  const close = () => {
    setPicked(null);
    onClose();
  };
  return (
    <FormDialog<AddValues | EditValues>
      open={editing !== null}
      width={680}
      title={t(item ? 'floor.edit' : 'floor.add')}
      schema={item ? scene.editFloorRequest : scene.addFloorRequest}
      testId="floor-form"
      initial={item ? floorEditValues(item) : { SceneId: sceneId, Type: 1 }}
      submit={(v) => (item ? call('/Scene/editFoorsInfo', v as EditValues) : call('/Scene/addFoorsInfo', v as AddValues))}
      invalidate={[SCENE_KEY]}
      onClose={close}
      fields={
        <>
          <Row gutter={12}>
            <Col span={6}>
              <Form.Item name="FloorNo" label={t('floor.floorNo')} required extra={t('floor.floorNoHint')}>
                <InputNumber style={{ width: '100%' }} precision={0} data-testid="floor-no" />
              </Form.Item>
            </Col>
            <Col span={10}>
              <Form.Item name="Name" label={t('floor.name')} required>
                <Input maxLength={64} data-testid="floor-name" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item name="Type" label={t('floor.type')} required>
                <Select options={options(scene.FLOOR_TYPES, (v) => floorTypeName(t, v))} data-testid="floor-type" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="Description" label={t('floor.description')} required>
            <Input.TextArea rows={2} maxLength={500} data-testid="floor-description" />
          </Form.Item>
          <Form.Item
            name="Plan"
            label={t('floor.plan')}
            required={!item}
            extra={t('floor.planHint', {
              width: RECOMMENDED_PLAN.width,
              height: RECOMMENDED_PLAN.height,
              max: scene.FLOOR_PLAN_MAX_BYTES / 1024 / 1024,
              side: scene.FLOOR_PLAN_MAX_SIDE,
            })}
          >
            <FileInput
              accept=".png,image/png"
              testId="floor-plan-upload"
              currentUrl={item?.PlanUrl}
              previewHeight={200}
              check={async (file) => {
                const r = await checkFloorPlan(file);
                if ('refusal' in r) return r.refusal;
                setPicked(r);
                return null;
              }}
              details={
                size ? (
                  <Typography.Text type="secondary" data-testid="floor-plan-size">
                    {t('floor.planSize', { width: size.width, height: size.height })}
                  </Typography.Text>
                ) : null
              }
            />
          </Form.Item>
          {picked && (picked.width !== RECOMMENDED_PLAN.width || picked.height !== RECOMMENDED_PLAN.height) ? (
            <Alert type="info" showIcon title={t('floor.planNotRecommended', RECOMMENDED_PLAN)} style={{ marginBottom: 12 }} />
          ) : null}
          {item && picked && item.MetresPerPixel ? (
            <Alert type="warning" showIcon title={t('floor.planReplaced')} data-testid="floor-plan-replaced" />
          ) : null}
        </>
      }
    />
  );
}
