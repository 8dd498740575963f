// Places a floor plan on the earth: the plan drawn over the outdoor map (the user's map source) as
// a MapLibre image whose four corners come from the georeference and the scale (indoor/geo.ts),
// dragged to move it, turned with a slider about its centre, seen through with an opacity slider,
// then saved as the floor's Geo (its other fields unchanged). A plan never placed starts centred
// on its scene's location. Needs the scale: without it the plan has no size on the ground.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Col, InputNumber, Modal, Row, Slider, Space, Typography } from 'antd';
import { useMap } from 'react-map-gl/maplibre';
import type { ImageSource, MapMouseEvent } from 'maplibre-gl';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { geoCentredAt, moveBy, normaliseRotation, onPlan, planCentre, planCorners, rotateAboutCentre, type Georeference, type LonLat } from '../../indoor/geo';
import { MapView } from '../../map/MapView';
import { useMapProjection, type MapProjection } from '../../map/projection';
import { useAction } from '../../patterns';
import { floorEditValues } from './FloorDialog';
import { SCENE_KEY, type Floor } from './queries';

const SOURCE = 'floor-plan-image';
const LAYER = 'floor-plan-image-layer';

/** The plan's corners in the map's coordinates (GCJ-02 on AMap). */
function mapCorners(geo: Georeference, widthM: number, heightM: number, projection: MapProjection) {
  return planCorners(geo, widthM, heightM).map((c) => projection.toMap(c)) as [LonLat, LonLat, LonLat, LonLat];
}

/**
 * The plan image on the map, kept in one image source whose corners are set in place while it is
 * dragged (a new source per move would fetch and decode the PNG again). A press on the plan drags
 * it (the map does not pan meanwhile); elsewhere the map pans as usual.
 */
function PlanImageLayer({
  url,
  geo,
  widthM,
  heightM,
  opacity,
  onMove,
}: {
  url: string;
  geo: Georeference;
  widthM: number;
  heightM: number;
  opacity: number;
  onMove: (geo: Georeference) => void;
}) {
  const { current } = useMap();
  const projection = useMapProjection();
  const corners = mapCorners(geo, widthM, heightM, projection);
  const latest = useRef({ geo, onMove, projection, widthM, heightM });
  latest.current = { geo, onMove, projection, widthM, heightM };

  useEffect(() => {
    const m = current?.getMap();
    if (!m) return;
    m.addSource(SOURCE, { type: 'image', url, coordinates: corners });
    m.addLayer({ id: LAYER, type: 'raster', source: SOURCE, paint: { 'raster-opacity': opacity, 'raster-fade-duration': 0 } });
    return () => {
      if (m.getLayer(LAYER)) m.removeLayer(LAYER);
      if (m.getSource(SOURCE)) m.removeSource(SOURCE);
    };
    // The source is made once per image; corners and opacity follow below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, url]);

  const key = corners.flat().join(',');
  useEffect(() => {
    (current?.getMap().getSource(SOURCE) as ImageSource | undefined)?.setCoordinates(corners);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current, key]);
  useEffect(() => {
    const m = current?.getMap();
    if (m?.getLayer(LAYER)) m.setPaintProperty(LAYER, 'raster-opacity', opacity);
  }, [current, opacity]);

  useEffect(() => {
    const m = current?.getMap();
    if (!m) return;
    const wgs = (e: MapMouseEvent): LonLat => latest.current.projection.fromMap([e.lngLat.lng, e.lngLat.lat]);
    let from: LonLat | null = null;
    let start: Georeference | null = null;
    const down = (e: MapMouseEvent) => {
      const p = wgs(e);
      const l = latest.current;
      if (!onPlan(l.geo, l.widthM, l.heightM, p)) return;
      e.preventDefault();
      from = p;
      start = l.geo;
      m.dragPan.disable();
      m.getCanvas().style.cursor = 'grabbing';
    };
    const move = (e: MapMouseEvent) => {
      if (from && start) {
        latest.current.onMove(moveBy(start, from, wgs(e)));
        return;
      }
      const l = latest.current;
      m.getCanvas().style.cursor = onPlan(l.geo, l.widthM, l.heightM, wgs(e)) ? 'move' : '';
    };
    const up = () => {
      if (!from) return;
      from = null;
      start = null;
      m.dragPan.enable();
      m.getCanvas().style.cursor = '';
    };
    m.on('mousedown', down);
    m.on('mousemove', move);
    m.on('mouseup', up);
    m.on('mouseout', up);
    return () => {
      m.off('mousedown', down);
      m.off('mousemove', move);
      m.off('mouseup', up);
      m.off('mouseout', up);
      m.dragPan.enable();
    };
  }, [current]);
  return null;
}

/** Moves the map to the plan when the tool opens. */
function FitPlan({ geo, widthM, heightM }: { geo: Georeference; widthM: number; heightM: number }) {
  const { current } = useMap();
  const projection = useMapProjection();
  const first = useRef(true);
  useEffect(() => {
    if (!current || !first.current) return;
    first.current = false;
    const cs = mapCorners(geo, widthM, heightM, projection);
    const lons = cs.map((c) => c[0]);
    const lats = cs.map((c) => c[1]);
    current.fitBounds(
      [
        [Math.min(...lons), Math.min(...lats)],
        [Math.max(...lons), Math.max(...lats)],
      ],
      { padding: 60, maxZoom: 19, duration: 0 },
    );
  }, [current, geo, widthM, heightM, projection]);
  return null;
}

export interface PlaceToolProps {
  floor: Floor | null;
  /** The scene's location: where a plan never placed starts. */
  sceneLocation: { Lat: number; Lon: number } | null;
  onClose: () => void;
}

export function PlaceTool({ floor, sceneLocation, onClose }: PlaceToolProps) {
  const { t } = useTranslation('scene');
  return (
    <Modal
      open={floor !== null}
      title={floor ? t('place.title', { name: floor.Name }) : ''}
      width={1040}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={null}
    >
      {floor ? <PlaceBody floor={floor} sceneLocation={sceneLocation} onClose={onClose} /> : null}
    </Modal>
  );
}

function PlaceBody({ floor, sceneLocation, onClose }: { floor: Floor; sceneLocation: PlaceToolProps['sceneLocation']; onClose: () => void }) {
  const { t } = useTranslation('scene');
  const mpp = floor.MetresPerPixel;
  const widthM = mpp ? floor.Width * mpp : 0;
  const heightM = mpp ? floor.Height * mpp : 0;
  const initial = useMemo<Georeference | null>(() => {
    if (floor.Geo) return floor.Geo;
    if (!sceneLocation || !mpp) return null;
    return geoCentredAt([sceneLocation.Lon, sceneLocation.Lat], widthM, heightM, 0);
  }, [floor.Geo, sceneLocation, mpp, widthM, heightM]);
  const [geo, setGeo] = useState<Georeference | null>(initial);
  const [opacity, setOpacity] = useState(0.7);
  const save = useAction((g: Georeference) => call('/Scene/editFoorsInfo', { ...floorEditValues(floor), Geo: g }), {
    success: t('place.saved'),
    invalidate: [SCENE_KEY],
    onDone: onClose,
  });

  if (!mpp) return <Alert type="warning" showIcon title={t('messages:scene.noScale')} data-testid="place-no-scale" />;
  if (!floor.PlanUrl || !geo) return <Alert type="warning" showIcon title={t('place.noPlan')} />;

  const rotate = (deg: number | null) => setGeo((g) => (g && deg !== null ? rotateAboutCentre(g, widthM, heightM, normaliseRotation(deg)) : g));
  const centre = planCentre(geo, widthM, heightM);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('place.hint')}</Typography.Text>
      <div style={{ height: 520, position: 'relative' }} data-testid="place-map">
        <MapView id="floor-place" initialViewState={{ longitude: centre[0], latitude: centre[1], zoom: 17 }} doubleClickZoom={false}>
          <FitPlan geo={geo} widthM={widthM} heightM={heightM} />
          <PlanImageLayer url={floor.PlanUrl} geo={geo} widthM={widthM} heightM={heightM} opacity={opacity} onMove={setGeo} />
        </MapView>
      </div>
      <Row gutter={16} align="middle">
        <Col span={3}>
          <Typography.Text>{t('place.rotation')}</Typography.Text>
        </Col>
        <Col span={11}>
          <Slider min={-180} max={180} step={0.5} value={geo.Rotation} onChange={(v) => rotate(v)} data-testid="place-rotation-slider" />
        </Col>
        <Col span={4}>
          <InputNumber<number>
            min={-360}
            max={360}
            step={0.5}
            value={Number(geo.Rotation.toFixed(2))}
            onChange={rotate}
            addonAfter="°"
            style={{ width: '100%' }}
            data-testid="place-rotation"
          />
        </Col>
        <Col span={2}>
          <Typography.Text>{t('place.opacity')}</Typography.Text>
        </Col>
        <Col span={4}>
          <Slider min={0.1} max={1} step={0.05} value={opacity} onChange={setOpacity} />
        </Col>
      </Row>
      <Typography.Text type="secondary" data-testid="place-origin">
        {t('place.origin', { lat: geo.OriginLat.toFixed(7), lon: geo.OriginLon.toFixed(7), rotation: geo.Rotation.toFixed(1) })}
      </Typography.Text>
      <Space style={{ justifyContent: 'flex-end', width: '100%' }}>
        <Button onClick={() => setGeo(initial)}>{t('place.reset')}</Button>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="primary" loading={save.busy} onClick={() => void save.run(geo)} data-testid="place-save">
          {t('save')}
        </Button>
      </Space>
    </Space>
  );
}
