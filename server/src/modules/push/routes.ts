// Partner push calls: companies and the delivery log.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const pushCalls = [
  defineCall('/Push/CompanyList', (ctx, body) => service.listCompanies(ctx, body)),
  defineCall('/Push/SaveCompany', (ctx, body) => service.saveCompany(ctx, body)),
  defineCall('/Push/DeleteCompany', (ctx, body) => service.deleteCompany(ctx, body.Id)),
  defineCall('/user/searchPushDataList', (ctx, body) => service.listAttempts(ctx, body)),
];
