// The tag bar of visited views, plus which kept-alive pages may stay mounted.
import { create } from 'zustand';
import * as logic from './tagsLogic';
import type { TagNavigation, TagView } from './tagsLogic';

interface TagsState {
  views: TagView[];
  /** Paths whose kept-alive page must be dropped once (refresh). */
  dropped: string[];
  add: (view: TagView) => void;
  setAffix: (affix: TagView[]) => void;
  close: (path: string, activePath: string) => TagNavigation;
  closeOthers: (path: string, activePath: string) => TagNavigation;
  closeAll: (path: string) => TagNavigation;
  /** Forgets the kept-alive page of `path` so the next visit mounts it afresh. */
  drop: (path: string) => void;
  undrop: (path: string) => void;
  clear: () => void;
}

export const useTags = create<TagsState>()((set, get) => ({
  views: [],
  dropped: [],
  add: (view) => set((s) => ({ views: logic.addView(s.views, view) })),
  setAffix: (affix) => set((s) => ({ views: logic.withAffix(s.views, affix) })),
  close: (path, activePath) => {
    const r = logic.closeView(get().views, path, activePath);
    set({ views: r.views });
    return r.next;
  },
  closeOthers: (path, activePath) => {
    const r = logic.closeOthers(get().views, path, activePath);
    set({ views: r.views });
    return r.next;
  },
  closeAll: (path) => {
    const r = logic.closeAll(get().views, path);
    set({ views: r.views });
    return r.next;
  },
  drop: (path) => set((s) => ({ dropped: s.dropped.includes(path) ? s.dropped : [...s.dropped, path] })),
  undrop: (path) => set((s) => ({ dropped: s.dropped.filter((p) => p !== path) })),
  clear: () => set({ views: [], dropped: [] }),
}));
