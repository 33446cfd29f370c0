export * from './client/index.js';
export * from './webhooks/index.js';
