// Every table, one file per area. drizzle-kit reads this to generate migrations.
export * from './account.js';
export * from './device.js';
export * from './alarm.js';
export * from './push.js';
export * from './catalogue.js';
export * from './device-extra.js';
export * from './monitor.js';
export * from './account-fence.js';
export * from './scene.js';
export * from './indoor.js';
export * from './messaging.js';
export * from './retention.js';
export * from './inventory.js';
export * from './erp.js';
export * from './beacon.js';
export * from './asset.js';
export * from './escalation.js';
