import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // A rejected token or a refused call will not get better by asking again.
      retry: (count, err) => !(err instanceof ApiError && err.state !== 0) && count < 2,
    },
  },
});
