// Apache ECharts with only what the report draws (its import costs a fraction of the whole library's). The build makes
// this module a file of its own (dist/echarts.cjs, scripts/build.mjs), which the program requires when a report first
// draws a chart: the two packages are 1.5 MB of source that no other command reads.
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, AriaComponent, SVGRenderer]);

export const { init } = echarts;
