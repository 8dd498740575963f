// Platform info, its icon, the login page's brand, and the function switches.
import { defineCall, definePublicCall } from '../../calls.js';
import * as brand from './brand.js';
import { uploadIcon } from './icon.js';
import { editSwitches } from './switches.js';

export const platformCalls = [
  defineCall('/Platform/Info', (ctx, body) => brand.info(ctx, body)),
  defineCall('/Platform/Save', (ctx, body) => brand.save(ctx, body)),
  defineCall('/Platform/UploadIcon', (ctx, body) => uploadIcon(ctx, body)),
  definePublicCall('/Platform/Brand', (ctx, body) => brand.brand(ctx, body)),
  defineCall('/User/EditFunctionSwitches', (ctx, body) => editSwitches(ctx, body)),
];

export { brandIconRoutes } from './icon.js';
