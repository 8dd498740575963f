// Person info of a device's wearer (SPEC §3 Device person info, §5 age/phone/email rules).
// - /device/updatePersonInfo   the console's payload of §3: sn (the IMEI), address, age, gender,
//                              phone, name, remark, height and weight (sent empty: kept as they are).
// - /device/AllPersonInfo      paged list of the wearers of the devices in scope.
// - /Person/SavePersonProfile  the full profile, with avatar (data: URL), email and blood type.
// - /Person/GetPersonProfile   one device's profile.
// - /Person/batchUpdatePerson  the same values written to many devices' profiles.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { EMAIL, LIMITS, PHONE } from '../rules.js';
import { imeiField } from './device.js';
import { STORABLE, num, optionalId, text as boundedText } from './common.js';

export const GENDERS = ['man', 'woman'] as const;
export const BLOOD_TYPES = ['A', 'B', 'AB', 'O'] as const;
/** Avatar uploads: images only, at most 2 MB once decoded. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** '' and null mean "not set"; older clients send gender as 1 (man) / 2 (woman). */
const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
export const genderField = z.preprocess(
  (v) => (v === 1 || v === '1' ? 'man' : v === 2 || v === '2' ? 'woman' : blank(v)),
  z.enum(GENDERS, { error: 'device.genderInvalid' }).optional(),
);
export const ageField = z.preprocess(
  blank,
  z.coerce
    .number({ error: 'device.ageInvalid' })
    .int({ error: 'device.ageInvalid' })
    .min(0, { error: 'device.ageInvalid' })
    .max(LIMITS.ageMax, { error: 'validation.ageMax' })
    .optional(),
);
export const personPhone = z.preprocess(blank, boundedText(32).regex(PHONE, { error: 'validation.phoneInvalid' }).optional());
export const personEmail = z.preprocess(blank, boundedText(128).regex(EMAIL, { error: 'validation.emailInvalid' }).optional());
export const bloodTypeField = z.preprocess(
  (v) => (typeof v === 'string' ? blank(v.trim().toUpperCase()) : blank(v)),
  z.enum(BLOOD_TYPES, { error: 'device.bloodTypeInvalid' }).optional(),
);
const text = (max: number) => boundedText(max).optional();
/** Centimetres / kilograms; empty keeps the stored value. */
const measure = (max: number) => z.preprocess(blank, num(0, max).optional());

export const personSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  Name: z.string(),
  Gender: z.enum(GENDERS).nullable(),
  Age: z.number().nullable(),
  Phone: z.string(),
  Email: z.string(),
  Address: z.string(),
  Remark: z.string(),
  BloodType: z.enum(BLOOD_TYPES).nullable(),
  Height: z.number().nullable(),
  Weight: z.number().nullable(),
  /** URL of the avatar (GET), empty when none. */
  Avatar: z.string(),
  UpdatedAt: z.string().nullable(),
});
export type Person = z.infer<typeof personSchema>;

export const updatePersonInfoRequest = z.object({
  sn: imeiField,
  name: text(64),
  address: text(256),
  age: ageField,
  gender: genderField,
  phone: personPhone,
  remark: text(512),
  height: measure(300),
  weight: measure(500),
});

const profileFields = {
  Name: text(64),
  Gender: genderField,
  Age: ageField,
  Phone: personPhone,
  Email: personEmail,
  Address: text(256),
  Remark: text(512),
  BloodType: bloodTypeField,
  Height: measure(300),
  Weight: measure(500),
  /** A data: URL (image/png, jpeg, gif or webp, at most 2 MB) to upload; '' removes the avatar. */
  Avatar: z
    .string()
    .refine((v) => v.length <= 3 * 1024 * 1024, { error: 'device.avatarTooLarge', params: { max: AVATAR_MAX_BYTES / 1024 / 1024 }, abort: true })
    .check(...STORABLE)
    .optional(),
};
export const savePersonProfileRequest = z.object({ Imei: imeiField, ...profileFields });
export const batchUpdatePersonRequest = z.object({
  Imeis: z.array(imeiField).min(1, { error: 'validation.imeiRequired' }).max(5000, { error: 'validation.tooMany' }),
  ...profileFields,
});
export const getPersonProfileRequest = z.object({ Imei: imeiField });

export const personResponse = ok({ Item: personSchema });
export const allPersonInfoRequest = z.object({
  ...pageRequest,
  UserId: optionalId,
  Imei: boundedText(15).optional(),
  Name: boundedText(64).optional(),
});
export const allPersonInfoResponse = pageOf(personSchema);
