// Sidebar and size state (SPEC §2): open state and component size persist for the session;
// the device kind follows the window width (mobile below 992 px).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { LIMITS } from '@wt/contract';
import { SESSION_KEYS } from '../utils/storage';

export type ComponentSize = 'small' | 'middle' | 'large';
export type DeviceKind = 'desktop' | 'mobile';

export function deviceOf(width: number): DeviceKind {
  return width < LIMITS.mobileBreakpoint ? 'mobile' : 'desktop';
}

interface AppState {
  sidebarOpened: boolean;
  size: ComponentSize;
  device: DeviceKind;
  toggleSidebar: () => void;
  closeSidebar: () => void;
  setSize: (size: ComponentSize) => void;
  setDevice: (device: DeviceKind) => void;
}

export const useApp = create<AppState>()(
  persist(
    (set) => ({
      sidebarOpened: true,
      size: 'middle',
      device: typeof window === 'undefined' ? 'desktop' : deviceOf(window.innerWidth),
      toggleSidebar: () => set((s) => ({ sidebarOpened: !s.sidebarOpened })),
      closeSidebar: () => set({ sidebarOpened: false }),
      setSize: (size) => set({ size }),
      setDevice: (device) => set({ device }),
    }),
    {
      name: SESSION_KEYS.app,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ sidebarOpened, size }) => ({ sidebarOpened, size }),
    },
  ),
);
