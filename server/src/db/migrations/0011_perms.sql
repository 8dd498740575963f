-- The two default permission sets every account may use (SPEC §6): "administrator privileges"
-- (every action, pages by role) and "user-defined" (pages by role, the everyday actions on one's
-- own devices and alarms). Owned by nobody; they cannot be edited or deleted.
INSERT INTO "permission_sets" ("owner_id", "key", "name", "description", "routes", "actions", "built_in")
SELECT NULL, 'admin', '管理员权限', '', '', '', true
WHERE NOT EXISTS (SELECT 1 FROM "permission_sets" WHERE "built_in" AND "key" = 'admin');
--> statement-breakpoint
INSERT INTO "permission_sets" ("owner_id", "key", "name", "description", "routes", "actions", "built_in")
SELECT NULL, 'custom', '自定义', '', '',
  'device.edit,device.command,device.export,history.export,fence.edit,alarm.confirm,alarm.setting,alarm.export,health.export,accountFence.edit',
  true
WHERE NOT EXISTS (SELECT 1 FROM "permission_sets" WHERE "built_in" AND "key" = 'custom');
