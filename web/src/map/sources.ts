// The map sources the platform offers (/Map/Settings: MAP_SOURCES and MAP_TILE_* on the server),
// fetched once per session. Every map applies the chosen one (MapView's base layers); the chosen
// source falls back to the platform's default when the user has not chosen or it is no longer offered.
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { CallResponse } from '@wt/contract';
import { call } from '../api/client';
import { useMapSettings } from './settings';

export type MapSource = CallResponse<'/Map/Settings'>['Sources'][number];

const OFFLINE: MapSource = { Id: 'offline', Gcj02: false, Attribution: '', Normal: null, Satellite: null };

export function useMapSources() {
  const q = useQuery({
    queryKey: ['map', 'settings'],
    queryFn: () => call('/Map/Settings', {}),
    staleTime: Infinity,
    retry: 1,
  });
  const sources = q.data?.Sources ?? [OFFLINE];
  return { sources, fallback: q.data?.Default ?? 'offline', loaded: q.isSuccess };
}

/** The source this browser shows, keeping the stored choice in line with what the platform offers. */
export function useMapSource(): MapSource {
  const { sources, fallback, loaded } = useMapSources();
  const { provider, chosen, set } = useMapSettings();
  const offered = sources.some((s) => s.Id === provider);
  useEffect(() => {
    if (!loaded) return;
    if (!chosen && provider !== fallback) set({ provider: fallback, chosen: false });
    else if (!offered) set({ provider: fallback, chosen: false });
  }, [loaded, chosen, offered, provider, fallback, set]);
  return sources.find((s) => s.Id === provider) ?? OFFLINE;
}
