// The health detail's charts say "no data" when nothing of theirs was reported in the range.
import { describe, expect, it } from 'vitest';
import { hasChartData } from '../src/pages/health/charts';

describe('health charts', () => {
  it('has data only when a series has a point', () => {
    expect(hasChartData(undefined)).toBe(false);
    expect(hasChartData({ series: [] })).toBe(false);
    // Threshold bands alone (markArea/markLine on an empty series) are not data.
    expect(hasChartData({ series: [{ data: [] }, { data: [] }] })).toBe(false);
    expect(hasChartData({ series: [{ data: [null, undefined] }] })).toBe(false);
    expect(hasChartData({ series: [{ data: [] }, { data: [[1700000000000, 72]] }] })).toBe(true);
    expect(hasChartData({ series: { data: [3] } })).toBe(true);
  });
});
