// Sets a floor plan's scale: two points clicked on the plan (dragged to adjust), the real distance
// between them typed in metres, and MetresPerPixel = metres / pixels between the points. Saved with
// the floor's other fields unchanged. Anchors are stored in metres: a new scale moves them on the
// plan, which the tool says when the floor has some.
import { useState } from 'react';
import { Alert, Button, Descriptions, InputNumber, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { PlanMarker, PlanView, usePlan, usePlanDrag } from '../../indoor/PlanView';
import { distance, scaleFromTwoPoints, type Point } from '../../indoor/planTransform';
import { useAction } from '../../patterns';
import { floorEditValues } from './FloorDialog';
import { SCENE_KEY, type Floor } from './queries';

/** Significant digits kept of a computed scale (a micrometre per pixel at most). */
export function roundScale(v: number): number {
  return Number(v.toPrecision(6));
}

/** A point of the measure, in image pixels, drawn in the overlay's metres and draggable. */
function MeasurePoint({ at, index, onMove }: { at: Point; index: number; onMove: (p: [number, number]) => void }) {
  const plan = usePlan();
  const metres: Point = [at[0] * plan.metresPerPixel, at[1] * plan.metresPerPixel];
  const drag = usePlanDrag({
    at: metres,
    onDrag: (m) => onMove([m[0] / plan.metresPerPixel, m[1] / plan.metresPerPixel]),
    onDrop: (m) => onMove([m[0] / plan.metresPerPixel, m[1] / plan.metresPerPixel]),
  });
  return (
    <PlanMarker at={metres} {...drag} data-testid={`scale-point-${index}`}>
      <circle r={7} fill="#fff" stroke="#fa541c" strokeWidth={2} />
      <circle r={2} fill="#fa541c" />
      <text x={10} y={-8} fontSize={12} fill="#fa541c" stroke="#fff" strokeWidth={3} paintOrder="stroke">
        {index === 0 ? 'A' : 'B'}
      </text>
    </PlanMarker>
  );
}

function MeasureLine({ a, b }: { a: Point; b: Point }) {
  const { metresPerPixel: k } = usePlan();
  return (
    <line
      x1={a[0] * k}
      y1={a[1] * k}
      x2={b[0] * k}
      y2={b[1] * k}
      stroke="#fa541c"
      strokeWidth={2}
      strokeDasharray="6 4"
      vectorEffect="non-scaling-stroke"
    />
  );
}

export function ScaleTool({ floor, onClose }: { floor: Floor | null; onClose: () => void }) {
  const { t } = useTranslation('scene');
  // Image pixels of the two points (independent of the scale in force).
  const [points, setPoints] = useState<Point[]>([]);
  const [metres, setMetres] = useState<number | null>(null);
  const close = () => {
    setPoints([]);
    setMetres(null);
    onClose();
  };
  const [a, b] = points;
  const pixels = a && b ? distance(a, b) : null;
  const scale = a && b && metres ? scaleFromTwoPoints(a, b, metres) : null;
  const save = useAction(
    (f: Floor, mpp: number) => call('/Scene/editFoorsInfo', { ...floorEditValues(f), MetresPerPixel: mpp }),
    { success: t('scale.saved'), invalidate: [SCENE_KEY], onDone: close },
  );

  return (
    <Modal
      open={floor !== null}
      title={floor ? t('scale.title', { name: floor.Name }) : ''}
      width={960}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      footer={[
        <Button key="reset" onClick={() => setPoints([])} disabled={!points.length}>
          {t('scale.reset')}
        </Button>,
        <Button key="cancel" onClick={close}>
          {t('cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          disabled={!scale}
          loading={save.busy}
          onClick={() => floor && scale && void save.run(floor, roundScale(scale))}
          data-testid="scale-save"
        >
          {t('save')}
        </Button>,
      ]}
    >
      {floor ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('scale.hint')}</Typography.Text>
          <div style={{ height: 480 }}>
            <PlanView
              planUrl={floor.PlanUrl}
              width={floor.Width}
              height={floor.Height}
              metresPerPixel={floor.MetresPerPixel}
              cursor="crosshair"
              onPlanClick={(p) => setPoints((old) => (old.length >= 2 ? [p.pixels] : [...old, p.pixels]))}
            >
              {a && b ? <MeasureLine a={a} b={b} /> : null}
              {points.map((p, i) => (
                <MeasurePoint key={i} at={p} index={i} onMove={(np) => setPoints((old) => old.map((o, j) => (j === i ? np : o)))} />
              ))}
            </PlanView>
          </div>
          <Space wrap align="center">
            <Typography.Text data-testid="scale-pixels">
              {pixels !== null ? t('scale.pixels', { pixels: pixels.toFixed(1) }) : t('scale.pickTwo', { count: 2 - points.length })}
            </Typography.Text>
            <InputNumber<number>
              min={0.01}
              max={100000}
              step={0.1}
              value={metres}
              onChange={(v) => setMetres(v)}
              addonAfter={t('scale.metres')}
              placeholder={t('scale.distance')}
              data-testid="scale-distance"
            />
          </Space>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('scale.current')}>
              {floor.MetresPerPixel ? t('scale.value', { value: floor.MetresPerPixel }) : t('floor.noScale')}
            </Descriptions.Item>
            <Descriptions.Item label={t('scale.new')}>
              <span data-testid="scale-result">{scale ? t('scale.value', { value: roundScale(scale) }) : '-'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('scale.planSize')} span={2}>
              {scale
                ? t('scale.planMetres', { width: (floor.Width * scale).toFixed(1), height: (floor.Height * scale).toFixed(1) })
                : '-'}
            </Descriptions.Item>
          </Descriptions>
          {floor.AnchorCount > 0 && scale ? <Alert type="warning" showIcon title={t('scale.anchorsMove', { count: floor.AnchorCount })} /> : null}
        </Space>
      ) : null}
    </Modal>
  );
}
