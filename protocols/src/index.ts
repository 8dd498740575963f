// Device protocol codecs: pure functions from bytes to normalized messages and from commands to bytes.
export type * from './types.js';
export * from './watch/index.js';
export * from './gt06/index.js';
export * from './osmand/index.js';
export * from './uplink/index.js';
export { toHex } from './util.js';
export { DEVICE_LIMITS, boundMessage, boundMessages, boundTime, cleanText, validIdentity } from './bounds.js';
