// Look-and-feel settings of the right-hand panel (SPEC §2), remembered in localStorage.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { LIMITS } from '@wt/contract';
import { LOCAL_KEYS } from '../utils/storage';

export interface Settings {
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  themeColor: LIMITS.themeColor,
  tagsView: true,
  fixedHeader: true,
  sidebarLogo: true,
};

interface SettingsState extends Settings {
  change: <K extends keyof Settings>(key: K, value: Settings[K]) => void;
  reset: () => void;
}

export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      ...DEFAULT_SETTINGS,
      change: (key, value) => set({ [key]: value } as Partial<Settings>),
      reset: () => set({ ...DEFAULT_SETTINGS }),
    }),
    {
      name: LOCAL_KEYS.settings,
      storage: createJSONStorage(() => localStorage),
      partialize: ({ themeColor, tagsView, fixedHeader, sidebarLogo }) => ({ themeColor, tagsView, fixedHeader, sidebarLogo }),
    },
  ),
);
