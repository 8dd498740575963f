// A message to show on the next screen (e.g. why the user landed on the login page).
import { create } from 'zustand';

interface NoticeState {
  key: string | null;
  show: (key: string) => void;
  take: () => string | null;
}

export const useNotice = create<NoticeState>()((set, get) => ({
  key: null,
  show: (key) => set({ key }),
  take: () => {
    const k = get().key;
    if (k) set({ key: null });
    return k;
  },
}));
