export * from './crc.js';
export * from './frame.js';
export * from './decoder.js';
export * from './encoder.js';
