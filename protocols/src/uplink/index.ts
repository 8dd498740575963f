export * from './decoder.js';
