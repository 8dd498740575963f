// What the scene pages share: the query keys (a change anywhere asks every scene list again: a
// floor's anchors count in its scene's row), the scene and floor pickers' data, the names of the
// contract's numeric choices, and a batch answer's refusals turned into an error to show.
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { scene, type CallResponse } from '@wt/contract';
import { ApiError, call } from '../../api/client';

export type Scene = scene.Scene;
export type Floor = scene.FloorSummary;
export type Anchor = scene.Anchor;
export type Calibration = scene.Calibration;

/** Every scene query starts with this key. */
export const SCENE_KEY = ['scene'] as const;

/** The scenes of the caller's subtree (every one, enabled or not), each with its floors: the pages' pickers. */
export function useAllScenes() {
  return useQuery({
    queryKey: [...SCENE_KEY, 'all'],
    queryFn: () => call('/Scene/SceneInfoListByMonitor', { EnabledOnly: false }),
    select: (r) => r.Items,
  });
}

/** One scene with its floors and anchors. */
export function useSceneDetail(sceneId: number | undefined) {
  return useQuery({
    queryKey: [...SCENE_KEY, 'detail', sceneId],
    queryFn: () => call('/Scene/sceneInfoByMonitor', { SceneId: sceneId! }),
    enabled: !!sceneId,
    select: (r) => r.Item,
  });
}

/** One floor with its scene and anchors. */
export function useFloorDetail(floorId: number | undefined) {
  return useQuery({
    queryKey: [...SCENE_KEY, 'floor', floorId],
    queryFn: () => call('/Scene/sceneInfoByFoorId', { FloorId: floorId! }),
    enabled: !!floorId,
    select: (r) => r.Item,
  });
}

/** A number from the URL's query (`?scene=3`), or undefined. */
export function idParam(value: string | null): number | undefined {
  if (!value || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

export const beaconTypeName = (t: TFunction, v: number) => t(`scene:beaconTypes.${v}`, { defaultValue: String(v) });
export const methodName = (t: TFunction, v: number) => t(`scene:methods.${v}`, { defaultValue: String(v) });
export const floorTypeName = (t: TFunction, v: number) => t(`scene:floorTypes.${v}`, { defaultValue: String(v) });
export const anchorTypeName = (t: TFunction, v: number) => t(`scene:anchorTypes.${v}`, { defaultValue: String(v) });
export const anchorStateName = (t: TFunction, v: number) => t(`scene:anchorStates.${v}`, { defaultValue: String(v) });

export const options = (values: readonly number[], name: (v: number) => string) => values.map((value) => ({ value, label: name(value) }));

/**
 * A delete answers per item: a refusal of every item (the scene has anchors deployed ...) is an
 * error carrying the first refusal's message, so the action shows it; a partial one too, after
 * the others were deleted.
 */
export function refusalsAsError(r: CallResponse<'/Scene/DeleteSceneInfo'>): CallResponse<'/Scene/DeleteSceneInfo'> {
  const first = r.Failed[0];
  if (first) throw new ApiError(400, first.Message, first.Params);
  return r;
}
