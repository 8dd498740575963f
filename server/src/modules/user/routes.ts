// The User area's calls: login, session, recovery, own profile and toggles, login log.
import { resolveLocale } from '@wt/contract';
import { defineCall, definePublicCall } from '../../calls.js';
import * as service from './service.js';
import { editSwitches } from '../platform/switches.js';

export const userCalls = [
  definePublicCall('/User/Login', (ctx, body) => service.login(ctx, body)),
  definePublicCall('/User/RefreshToken', (ctx, body) => service.refresh(ctx, body)),
  definePublicCall('/User/Register', (ctx, body) => service.register(ctx, body)),
  definePublicCall('/User/FindPassword', (ctx, body) => service.findPassword(ctx, body)),
  definePublicCall('/User/ResetPassword', (ctx, body) => service.resetPassword(ctx, body)),
  definePublicCall('/User/UnlockBrowser', (ctx, body) => service.unlockBrowser(ctx, body)),
  defineCall('/User/UserInfo', (ctx, body) => service.userInfo(ctx, body.UserId)),
  defineCall('/User/ChangePassword', (ctx, body) => service.changePassword(ctx, body)),
  defineCall('/User/EditUserInfo', (ctx, { UserId, Username, Avatar, PageName, CellPhone, Email, Address, companyName, Contact, Introduction, Language, timeZoneOffset }) =>
    service.updateProfile(ctx, UserId, {
      username: Username,
      avatar: Avatar,
      pageName: PageName,
      phone: CellPhone,
      email: Email,
      address: Address,
      companyName,
      contact: Contact,
      introduction: Introduction,
      language: Language ? resolveLocale(Language) : undefined,
      timeZoneOffset,
    }),
  ),
  // The spec's single toggles follow the rules of the function switches (platform/switches.ts).
  // -1 is how older data says "unset"; it is stored as 2 (hidden), as the console reads it.
  defineCall('/User/EditUserInfoByStatus', (ctx, body) => editSwitches(ctx, { UserId: body.UserId, isShowMapLabel: body.isShowMapLabel === 1 ? 1 : 2 })),
  defineCall('/User/EditUserInfoByFenceStatus', (ctx, body) => editSwitches(ctx, { UserId: body.UserId, IsShowMonitorFence: body.IsShowMonitorFence })),
  defineCall('/User/EditUserInfoBySosAlarm', (ctx, body) => editSwitches(ctx, { UserId: body.UserId, switchAnimation: body.switchAnimation })),
  defineCall('/User/EditUserBatchSendCmd', (ctx, body) => editSwitches(ctx, { UserId: body.UserId, switchFunctionSendCmd: body.switchFunctionSendCmd })),
  defineCall('/User/SaveUserLoginLog', (ctx, body) => service.saveLoginLog(ctx, body)),
  defineCall('/User/allUserLoginLog', (ctx, body) => service.loginLogs(ctx, body)),
];
