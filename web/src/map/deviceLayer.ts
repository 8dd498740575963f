// The devices of the monitor map as one MapLibre custom layer (WebGL2): every device is a point
// sprite read from the typed arrays of DevicePoints, so a realtime batch costs one buffer upload
// of the changed range and one repaint, never a source re-tiled by MapLibre. Zoomed out, clusters
// (computed in the cluster worker) are drawn as discs and only the devices outside them singly.
import type { CustomLayerInterface, CustomRenderMethodInput, Map as MapLibreMap } from 'maplibre-gl';
import { ATLAS_COLORS, clusterStep, mercatorX, mercatorY, type DevicePoints } from './devicePoints';
import { ROLE_SHAPES } from './icons';

export const DEVICE_LAYER_ID = 'devices';

const POINT_VS = `#version 300 es
precision highp float;
precision highp int;
uniform mat4 u_matrix;
uniform vec2 u_hi;
uniform vec2 u_lo;
uniform int u_mode;
uniform float u_dpr;
uniform float u_halo;
in vec4 a_pos;
in vec2 a_attr;
out float v_icon;
out float v_size;
void main() {
  vec2 p = (a_pos.xy - u_hi) + (a_pos.zw - u_lo);
  gl_Position = u_matrix * vec4(p, 0.0, 1.0);
  float status = a_attr.y;
  float size = 0.0;
  if (status < 254.5) {
    if (u_mode == 0) size = status > 1.5 ? (u_halo + 2.0) * 2.0 + 2.0 : 0.0;
    else if (u_mode == 1) size = status > 1.5 ? 25.0 : 20.0;
    else size = 38.0;
  }
  v_icon = a_attr.x;
  v_size = size * u_dpr;
  gl_PointSize = v_size;
  if (size == 0.0) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
}`;

const POINT_FS = `#version 300 es
precision highp float;
precision highp int;
uniform int u_mode;
uniform sampler2D u_atlas;
uniform vec2 u_grid;
uniform float u_dpr;
uniform float u_halo;
uniform float u_halo_alpha;
in float v_icon;
in float v_size;
out vec4 color;
void main() {
  if (u_mode == 1) {
    vec2 cell = vec2(mod(v_icon, u_grid.x), floor(v_icon / u_grid.x));
    color = texture(u_atlas, (cell + gl_PointCoord) / u_grid);
    if (color.a < 0.02) discard;
    return;
  }
  float d = length(gl_PointCoord - 0.5) * v_size / u_dpr;
  if (u_mode == 0) {
    // SOS halo: translucent red disc, opaque red 2 px edge.
    float edge = clamp(u_halo + 2.0 - d + 0.5, 0.0, 1.0);
    float a = (d < u_halo ? u_halo_alpha : 1.0) * edge;
    color = vec4(0.961, 0.133, 0.176, 1.0) * a;
  } else {
    // Selection ring: 3 px, radius 15.
    float a = clamp(18.0 - d + 0.5, 0.0, 1.0) * clamp(d - 15.0 + 0.5, 0.0, 1.0);
    color = vec4(0.251, 0.620, 1.0, 1.0) * a;
  }
  if (color.a < 0.01) discard;
}`;

const CLUSTER_VS = `#version 300 es
precision highp float;
precision highp int;
uniform mat4 u_matrix;
uniform vec2 u_hi;
uniform vec2 u_lo;
uniform float u_dpr;
in vec4 a_pos;
in vec4 a_style;
out vec3 v_color;
out float v_radius;
out float v_size;
void main() {
  vec2 p = (a_pos.xy - u_hi) + (a_pos.zw - u_lo);
  gl_Position = u_matrix * vec4(p, 0.0, 1.0);
  v_color = a_style.rgb;
  v_radius = a_style.a;
  v_size = ((a_style.a + 3.0) * 2.0 + 2.0) * u_dpr;
  gl_PointSize = v_size;
}`;

const CLUSTER_FS = `#version 300 es
precision highp float;
precision highp int;
uniform float u_dpr;
in vec3 v_color;
in float v_radius;
in float v_size;
out vec4 color;
void main() {
  float d = length(gl_PointCoord - 0.5) * v_size / u_dpr;
  float outer = clamp(v_radius + 3.0 - d + 0.5, 0.0, 1.0);
  float inner = clamp(v_radius - d + 0.5, 0.0, 1.0);
  // Disc at 85 %, white 3 px edge at 60 % (premultiplied).
  vec4 fill = vec4(v_color, 1.0) * 0.85;
  vec4 edge = vec4(1.0) * 0.6;
  color = mix(edge, fill, inner) * outer;
  if (color.a < 0.01) discard;
}`;

function compile(gl: WebGL2RenderingContext, vs: string, fs: string): WebGLProgram {
  const program = gl.createProgram();
  for (const [type, src] of [
    [gl.VERTEX_SHADER, vs],
    [gl.FRAGMENT_SHADER, fs],
  ] as const) {
    const s = gl.createShader(type)!;
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(`device layer shader: ${gl.getShaderInfoLog(s)}`);
    gl.attachShader(program, s);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`device layer program: ${gl.getProgramInfoLog(program)}`);
  return program;
}

function rgb(hex: string): [number, number, number] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
}

/** Clusters to draw: lon, lat, count, id per cluster (display coordinates). */
export interface ClusterView {
  clusters: Float64Array;
  /** Slots drawn singly. */
  singles: Uint32Array;
}

/** Cluster discs as vertices: x/y high and low parts, colour, radius (CSS px). */
export function packClusters(clusters: Float64Array): Float32Array {
  const n = clusters.length / 4;
  const out = new Float32Array(n * 8);
  for (let k = 0; k < n; k++) {
    const x = mercatorX(clusters[k * 4]!);
    const y = mercatorY(clusters[k * 4 + 1]!);
    const { color, radius } = clusterStep(clusters[k * 4 + 2]!);
    const [r, g, b] = rgb(color);
    const hx = Math.fround(x);
    const hy = Math.fround(y);
    out.set([hx, hy, x - hx, y - hy, r, g, b, radius], k * 8);
  }
  return out;
}

interface Gl {
  point: WebGLProgram;
  cluster: WebGLProgram;
  pointVao: WebGLVertexArrayObject;
  clusterVao: WebGLVertexArrayObject;
  pos: WebGLBuffer;
  attr: WebGLBuffer;
  singles: WebGLBuffer;
  clusterBuf: WebGLBuffer;
  atlas: WebGLTexture;
  capacity: number;
  u: Record<string, WebGLUniformLocation | null>;
  cu: Record<string, WebGLUniformLocation | null>;
}

export class DeviceLayer implements CustomLayerInterface {
  readonly id = DEVICE_LAYER_ID;
  readonly type = 'custom' as const;
  readonly renderingMode = '2d' as const;
  private map: MapLibreMap | null = null;
  private g: Gl | null = null;
  private view: ClusterView | null = null;
  private viewChanged = false;
  private reload = true;
  /** The selected device (ringed), by id. */
  selectedId: number | null = null;
  /** SOS halo radius and fill opacity (blinking changes them). */
  halo = { radius: 16, alpha: 0.35 };
  /** Called after each frame drawn. */
  onRender?: () => void;

  constructor(
    readonly points: DevicePoints,
    private atlasImage: TexImageSource,
  ) {}

  /** Clusters zoomed out; null draws every device singly. */
  setClusters(view: ClusterView | null): void {
    this.view = view;
    this.viewChanged = true;
    this.map?.triggerRepaint();
  }

  get clusters(): ClusterView | null {
    return this.view;
  }

  /** Every slot changed (a new list): the buffers are rebuilt on the next frame. */
  reset(): void {
    this.reload = true;
    this.map?.triggerRepaint();
  }

  repaint(): void {
    this.map?.triggerRepaint();
  }

  onAdd(map: MapLibreMap, gl: WebGL2RenderingContext): void {
    this.map = map;
    const point = compile(gl, POINT_VS, POINT_FS);
    const cluster = compile(gl, CLUSTER_VS, CLUSTER_FS);
    const loc = (p: WebGLProgram, names: string[]) => Object.fromEntries(names.map((n) => [n, gl.getUniformLocation(p, n)]));
    const g: Gl = {
      point,
      cluster,
      pointVao: gl.createVertexArray(),
      clusterVao: gl.createVertexArray(),
      pos: gl.createBuffer(),
      attr: gl.createBuffer(),
      singles: gl.createBuffer(),
      clusterBuf: gl.createBuffer(),
      atlas: gl.createTexture(),
      capacity: -1,
      u: loc(point, ['u_matrix', 'u_hi', 'u_lo', 'u_mode', 'u_dpr', 'u_halo', 'u_halo_alpha', 'u_atlas', 'u_grid']),
      cu: loc(cluster, ['u_matrix', 'u_hi', 'u_lo', 'u_dpr']),
    };
    gl.bindVertexArray(g.pointVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, g.pos);
    const aPos = gl.getAttribLocation(point, 'a_pos');
    gl.enableVertexAttribArray(aPos);
    gl.vertexAttribPointer(aPos, 4, gl.FLOAT, false, 16, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, g.attr);
    const aAttr = gl.getAttribLocation(point, 'a_attr');
    gl.enableVertexAttribArray(aAttr);
    gl.vertexAttribPointer(aAttr, 2, gl.UNSIGNED_BYTE, false, 2, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, g.singles);
    gl.bindVertexArray(g.clusterVao);
    gl.bindBuffer(gl.ARRAY_BUFFER, g.clusterBuf);
    const cPos = gl.getAttribLocation(cluster, 'a_pos');
    const cStyle = gl.getAttribLocation(cluster, 'a_style');
    gl.enableVertexAttribArray(cPos);
    gl.vertexAttribPointer(cPos, 4, gl.FLOAT, false, 32, 0);
    gl.enableVertexAttribArray(cStyle);
    gl.vertexAttribPointer(cStyle, 4, gl.FLOAT, false, 32, 16);
    gl.bindVertexArray(null);

    gl.bindTexture(gl.TEXTURE_2D, g.atlas);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, this.atlasImage);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.generateMipmap(gl.TEXTURE_2D);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.g = g;
    this.reload = true;
    this.viewChanged = true;
  }

  onRemove(_map: MapLibreMap, gl: WebGL2RenderingContext): void {
    const g = this.g;
    this.map = null;
    this.g = null;
    if (!g) return;
    for (const b of [g.pos, g.attr, g.singles, g.clusterBuf]) gl.deleteBuffer(b);
    gl.deleteVertexArray(g.pointVao);
    gl.deleteVertexArray(g.clusterVao);
    gl.deleteTexture(g.atlas);
    gl.deleteProgram(g.point);
    gl.deleteProgram(g.cluster);
  }

  /** Uploads what changed since the last frame: everything after a reset, else the dirty range. */
  private upload(gl: WebGL2RenderingContext, g: Gl): void {
    const p = this.points;
    if (this.reload || g.capacity !== p.count) {
      this.reload = false;
      g.capacity = p.count;
      p.takeDirty();
      gl.bindBuffer(gl.ARRAY_BUFFER, g.pos);
      gl.bufferData(gl.ARRAY_BUFFER, p.gpuPos, gl.DYNAMIC_DRAW);
      gl.bindBuffer(gl.ARRAY_BUFFER, g.attr);
      gl.bufferData(gl.ARRAY_BUFFER, p.gpuAttr, gl.DYNAMIC_DRAW);
    } else {
      const dirty = p.takeDirty();
      if (dirty) {
        const [from, to] = dirty;
        gl.bindBuffer(gl.ARRAY_BUFFER, g.pos);
        gl.bufferSubData(gl.ARRAY_BUFFER, from * 16, p.gpuPos, from * 4, (to - from) * 4);
        gl.bindBuffer(gl.ARRAY_BUFFER, g.attr);
        gl.bufferSubData(gl.ARRAY_BUFFER, from * 2, p.gpuAttr, from * 2, (to - from) * 2);
      }
    }
    if (this.viewChanged) {
      this.viewChanged = false;
      if (this.view) {
        gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, g.singles);
        gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, this.view.singles, gl.DYNAMIC_DRAW);
        gl.bindBuffer(gl.ARRAY_BUFFER, g.clusterBuf);
        gl.bufferData(gl.ARRAY_BUFFER, packClusters(this.view.clusters), gl.DYNAMIC_DRAW);
      }
    }
  }

  render(gl: WebGL2RenderingContext | WebGLRenderingContext, args: CustomRenderMethodInput): void {
    const g = this.g;
    const map = this.map;
    if (!g || !map || !('bindVertexArray' in gl)) return;
    const p = this.points;
    if (!p.count) return;
    // Positions relative to the view centre (high and low parts), so float32 keeps street-level precision.
    const c = map.getCenter();
    const cx = mercatorX(c.lng);
    const cy = mercatorY(c.lat);
    const hx = Math.fround(cx);
    const hy = Math.fround(cy);
    const m = args.defaultProjectionData.mainMatrix as ArrayLike<number>;
    const matrix = new Float32Array(16);
    for (let k = 0; k < 12; k++) matrix[k] = m[k]!;
    for (let r = 0; r < 4; r++) matrix[12 + r] = m[r]! * cx + m[4 + r]! * cy + m[12 + r]!;
    const dpr = window.devicePixelRatio || 1;

    gl.bindVertexArray(g.pointVao);
    this.upload(gl, g);
    gl.disable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);

    const view = this.view;
    if (view && view.clusters.length) {
      gl.useProgram(g.cluster);
      gl.bindVertexArray(g.clusterVao);
      gl.uniformMatrix4fv(g.cu.u_matrix!, false, matrix);
      gl.uniform2f(g.cu.u_hi!, hx, hy);
      gl.uniform2f(g.cu.u_lo!, cx - hx, cy - hy);
      gl.uniform1f(g.cu.u_dpr!, dpr);
      gl.drawArrays(gl.POINTS, 0, view.clusters.length / 4);
    }

    gl.useProgram(g.point);
    gl.bindVertexArray(g.pointVao);
    const u = g.u;
    gl.uniformMatrix4fv(u.u_matrix!, false, matrix);
    gl.uniform2f(u.u_hi!, hx, hy);
    gl.uniform2f(u.u_lo!, cx - hx, cy - hy);
    gl.uniform1f(u.u_dpr!, dpr);
    gl.uniform1f(u.u_halo!, this.halo.radius);
    gl.uniform1f(u.u_halo_alpha!, this.halo.alpha);
    gl.uniform2f(u.u_grid!, ATLAS_COLORS.length, ROLE_SHAPES.length);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, g.atlas);
    gl.uniform1i(u.u_atlas!, 0);
    const draw = () => {
      if (view) gl.drawElements(gl.POINTS, view.singles.length, gl.UNSIGNED_INT, 0);
      else gl.drawArrays(gl.POINTS, 0, p.count);
    };
    if (p.sos > 0) {
      gl.uniform1i(u.u_mode!, 0);
      draw();
    }
    gl.uniform1i(u.u_mode!, 1);
    draw();
    const selected = this.selectedId === null ? undefined : p.slot.get(this.selectedId);
    if (selected !== undefined && (!view || view.singles.includes(selected))) {
      gl.uniform1i(u.u_mode!, 2);
      gl.drawArrays(gl.POINTS, selected, 1);
    }
    gl.bindVertexArray(null);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.onRender?.();
  }
}
