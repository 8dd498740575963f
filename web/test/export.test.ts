// Server exports in the console: the file is read as it streams in, with the announced row count and
// the bytes received reported along the way; a refusal becomes the server's message.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchExport, formatBytes, type ExportProgress } from '../src/components/ExportButton';
import { ApiError } from '../src/api/client';

afterEach(() => vi.unstubAllGlobals());

function streamOf(chunks: number[]) {
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const n of chunks) c.enqueue(new Uint8Array(n));
      c.close();
    },
  });
}

describe('server exports', () => {
  it('reports the announced rows and the bytes received chunk by chunk', async () => {
    const fetch = vi.fn(async () => new Response(streamOf([1000, 2000, 500]), { headers: { 'x-total-rows': '100000', 'content-type': 'application/x-test' } }));
    vi.stubGlobal('fetch', fetch);
    const seen: ExportProgress[] = [];
    const blob = await fetchExport('/export/devices', { Name: 'a' }, 'en', (p) => seen.push(p));
    expect(blob.size).toBe(3500);
    expect(blob.type).toBe('application/x-test');
    expect(seen.map((p) => p.bytes)).toEqual([0, 1000, 3000, 3500]);
    expect(seen.every((p) => p.total === 100_000)).toBe(true);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/export/devices');
    expect(JSON.parse(init.body as string)).toEqual({ Name: 'a' });
    expect((init.headers as Record<string, string>)['x-language']).toBe('en');
  });

  it('turns a refusal into the server message', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ State: 400, Message: 'export.tooMany', Params: { count: 2, limit: 1 } }), { status: 400 }));
    const err = await fetchExport('/export/devices', {}, 'en', () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ messageKey: 'export.tooMany', params: { count: 2, limit: 1 } });
  });

  it('writes sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(20_480)).toBe('20 KB');
    expect(formatBytes(8_178_892)).toBe('7.8 MB');
  });
});
