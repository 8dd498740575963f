// What the navigation progress shows, outside React's transitions so it is painted at once: the
// router's navigation (the route's check, the page's module; mirrored from the router as its state
// changes, since the router renders its own state as a transition that a busy page can hold back)
// and a page still waiting to render after it (KeepAliveOutlet).
import { create } from 'zustand';

interface PagePending {
  navigating: boolean;
  pending: boolean;
  setNavigating: (navigating: boolean) => void;
  set: (pending: boolean) => void;
}

export const usePagePending = create<PagePending>()((set) => ({
  navigating: false,
  pending: false,
  setNavigating: (navigating) => set({ navigating }),
  set: (pending) => set({ pending }),
}));
