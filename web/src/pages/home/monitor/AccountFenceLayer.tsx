// The account fences on the monitor map (the toolbar's "account fences" switch): every fence of the
// caller's subtree with its name, under the devices. District fences show their boundary.
import { useQuery } from '@tanstack/react-query';
import { useMap } from 'react-map-gl/maplibre';
import { DEVICE_LAYER_ID } from '../../../map/deviceLayer';
import { FenceLayers, useFenceCollection } from '../../account/fence/FenceLayers';
import { ACCOUNT_FENCE_KEYS, loadAllFences } from '../../account/fence/queries';

const NONE: never[] = [];

export function AccountFenceLayer() {
  const { current } = useMap();
  const fences = useQuery({
    queryKey: ACCOUNT_FENCE_KEYS.monitor(undefined),
    queryFn: () => loadAllFences(),
    staleTime: 60_000,
  });
  const data = useFenceCollection(fences.data ?? NONE, null);
  const beforeId = current?.getMap().getLayer(DEVICE_LAYER_ID) ? DEVICE_LAYER_ID : undefined;
  return <FenceLayers id="monitor-account-fences" data={data} beforeId={beforeId} />;
}
