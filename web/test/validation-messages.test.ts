// The console shows the contract's validation messages with their limits filled in, for its own
// form checks and for the fields the server refuses, in the user's language.
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMAS } from '@wt/contract';
import i18n from '../src/i18n/index';
import { errorText, fieldErrorText } from '../src/i18n/errors';
import { issueText, schemaValidator } from '../src/forms/validate';
import { validateLogin } from '../src/forms/passwords';
import { ApiError } from '../src/api/client';

const t = i18n.t.bind(i18n);

describe('validation messages in the console', () => {
  afterAll(() => i18n.changeLanguage('zh-CN'));

  it('render the limit a form value crossed', async () => {
    await i18n.changeLanguage('zh-CN');
    const validate = schemaValidator(SCHEMAS['/DeviceRole/Save'].request);
    const [name] = validate({ Name: 'x'.repeat(65), Color: 'blue' });
    expect(name).toEqual({ field: 'Name', key: 'validation.tooLong', params: { max: 64 } });
    expect(issueText(t, name!)).toBe('长度不能超过 64 个字符');
    await i18n.changeLanguage('en');
    expect(issueText(t, name!)).toBe('At most 64 characters');
    const [login] = validateLogin({ LoginName: 'x'.repeat(65), Password: 'abc123' });
    expect(issueText(t, login!)).toBe('At most 64 characters');
  });

  it('render the range of a date and of a number', async () => {
    await i18n.changeLanguage('zh-TW');
    const issues = schemaValidator(SCHEMAS['/Device/allHealthDataPage'].request)({ StartTime: '0000-01-01', PageCount: 5000 });
    expect(issues.map((i) => issueText(t, i))).toEqual(['不能大於 1000', '日期須在 1970-01-01 到 2100-12-31 之間']);
  });

  it('list the fields a server refusal names, with their limits', async () => {
    await i18n.changeLanguage('en');
    const err = new ApiError(400, 'common.validation', undefined, [
      { Field: 'UserId', Message: 'validation.max', Params: { max: 2147483647 } },
      { Field: 'body', Message: 'validation.object' },
    ]);
    expect(errorText(t, err)).toBe('Some fields are not valid, please check them: UserId Must be at most 2147483647; body Must be a JSON object');
    expect(fieldErrorText(t, { Field: 'Name', Message: 'validation.tooLong', Params: { max: 64 } })).toBe('Name At most 64 characters');
  });
});
