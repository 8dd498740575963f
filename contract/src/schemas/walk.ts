// The fields of a request schema, found by walking it: the bounds tests of the contract and the
// server's hostile-input test go through every field of every call with it.
import type { z } from 'zod';

export interface SchemaLeaf {
  /** 'leaf' for a value, 'array' for a list (listed only when asked for). */
  kind: 'leaf' | 'array';
  /** Where the field sits in the body: keys, and 0 for an array's element. */
  path: (string | number)[];
  /** The field's own schema, wrappers (optional, default, nullable, preprocessing) taken off. */
  schema: z.ZodType;
  /** False when the body must carry the field. */
  optional: boolean;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
}

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch']);

/** Takes wrappers off a schema; preprocessing (a pipe from a transform) gives its target. */
export function unwrapSchema(schema: z.ZodType): { schema: z.ZodType; optional: boolean } {
  let s = schema;
  let optional = false;
  for (;;) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault') optional = true;
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    else if (d.type === 'pipe' && d.in && d.out && defOf(d.in).type === 'transform') s = d.out;
    // A schema with a transform after it (dates read into ISO text) is a leaf of its own.
    else if (d.type === 'pipe' && d.in && d.out && defOf(d.out).type !== 'transform') s = d.in;
    else return { schema: s, optional };
  }
}

/**
 * Every field of a schema down to its leaves (strings, numbers, dates, enums ...); with
 * `arrays`, the lists on the way too.
 */
export function schemaLeaves(schema: z.ZodType, options: { arrays?: boolean } = {}, path: (string | number)[] = [], optional = false): SchemaLeaf[] {
  const u = unwrapSchema(schema);
  const opt = optional || u.optional;
  const d = defOf(u.schema);
  if (d.type === 'object' && d.shape) {
    return Object.entries(d.shape).flatMap(([k, v]) => schemaLeaves(v, options, [...path, k], opt));
  }
  if (d.type === 'array' && d.element) {
    const self: SchemaLeaf[] = options.arrays ? [{ kind: 'array', path, schema: u.schema, optional: opt }] : [];
    return [...self, ...schemaLeaves(d.element, options, [...path, 0], opt)];
  }
  if (d.type === 'union' && d.options?.every((o) => defOf(unwrapSchema(o).schema).type === 'object')) {
    const seen = new Map<string, SchemaLeaf>();
    for (const o of d.options) for (const l of schemaLeaves(o, options, path, opt)) if (!seen.has(l.path.join('.'))) seen.set(l.path.join('.'), l);
    return [...seen.values()];
  }
  if (d.type === 'intersection') {
    const i = d as unknown as { left: z.ZodType; right: z.ZodType };
    return [...schemaLeaves(i.left, options, path, opt), ...schemaLeaves(i.right, options, path, opt)];
  }
  return [{ kind: 'leaf', path, schema: u.schema, optional: opt }];
}

/** The schema's node type ('string', 'number', 'union' ...). */
export function schemaType(schema: z.ZodType): string {
  return defOf(schema).type;
}

/** What a leaf that transforms its value validates first. */
export function pipeInput(schema: z.ZodType): z.ZodType | undefined {
  const d = defOf(schema);
  return d.type === 'pipe' && d.in ? unwrapSchema(d.in).schema : undefined;
}

/** The options of a union leaf, unwrapped. */
export function unionOptions(schema: z.ZodType): z.ZodType[] {
  return (defOf(schema).options ?? []).map((o) => unwrapSchema(o).schema);
}
