// Shared queries of the alarm pages: the installation's alarm types (names by code, in the current
// language) and the user's pop-up settings.
import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, STICKY_ALARM_CODES, type AlarmSetting } from '@wt/contract';
import { isLocale } from '../../i18n';
import { builtInTypeName } from '../../i18n/texts';
import { call } from '../../api/client';
import { useSession } from '../../stores/session';

export const ALARM_KEY = ['alarm'] as const;

export function useAlarmTypes() {
  return useQuery({
    queryKey: [...ALARM_KEY, 'types'],
    queryFn: async () => (await call('/ExceptionMessage/ExcdeptionListWhitoutCode', {})).Items,
    staleTime: 60_000,
  });
}

/**
 * The display name of an alarm type code: the installation's name as the server renders it in the
 * console's language (the list is fetched again when the language changes), else the built-in one.
 */
export function useAlarmTypeName(): (code: number) => string {
  const { i18n } = useTranslation();
  const types = useAlarmTypes().data;
  const locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  return useCallback((code: number) => types?.find((x) => x.Code === code)?.Name || builtInTypeName(locale, code), [types, locale]);
}

export interface AlarmPopupRule {
  /** Show a pop-up for new alarms of this type. */
  show: boolean;
  /** 1 no auto-close, 2 auto-close, 3 ring. */
  ringType: 1 | 2 | 3;
}

/**
 * The current user's alarm settings, for the alarm pop-ups: `ruleFor(code)` says whether to show
 * an alarm of that type and how. Without a setting, SOS, fall and removal (5, 150, 151) stay open
 * until closed and others close by themselves (SPEC §9).
 */
export function useAlarmSettings() {
  const userId = useSession((s) => s.userId);
  const q = useQuery({
    queryKey: [...ALARM_KEY, 'settings', userId],
    queryFn: async () => (await call('/ExceptionMessage/AlarmRulesByUserId', { UserId: userId ?? undefined })).Items,
    enabled: userId !== null,
    staleTime: 30_000,
  });
  const settings: AlarmSetting[] = q.data ?? [];
  const ruleFor = (code: number): AlarmPopupRule => {
    const s = settings.find((x) => x.Code === code);
    if (!s) return { show: true, ringType: STICKY_ALARM_CODES.includes(code) ? 1 : 2 };
    return { show: s.NewState === 1, ringType: (s.RingType === 1 || s.RingType === 3 ? s.RingType : 2) as 1 | 2 | 3 };
  };
  return { settings, ruleFor, isLoading: q.isLoading };
}
