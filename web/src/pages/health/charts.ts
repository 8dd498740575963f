// ECharts, registered piece by piece so the console ships only the chart kinds it draws.
import * as echarts from 'echarts/core';
import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, MarkPointComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, BarChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, MarkPointComponent, DataZoomComponent, CanvasRenderer]);

export { echarts };

/** Whether a chart option has anything to draw: a chart whose series are all empty says so instead of drawing bare axes. */
export function hasChartData(option: { series?: { data?: unknown[] }[] | { data?: unknown[] } } | undefined): boolean {
  if (!option?.series) return false;
  const list = Array.isArray(option.series) ? option.series : [option.series];
  return list.some((s) => Array.isArray(s.data) && s.data.some((d) => d !== null && d !== undefined));
}
