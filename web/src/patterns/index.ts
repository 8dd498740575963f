// The console's list-and-edit patterns (see docs/architecture.md, "List-and-edit screens").
export { ListPage, searchQuery } from './ListPage';
export type { ListPageProps, ListQuery, SearchSpec } from './ListPage';
export { ActionButton, RowActions, addAction, rowAction } from './actions';
export type { ListContext, RowAction, ToolbarAction, ToolbarEntry } from './actions';
export { FormDialog, renderFields } from './FormDialog';
export type { FormDialogProps, FieldSpec } from './FormDialog';
export { useAction, performAction, invalidateAll } from './useAction';
export type { ActionHandle, ActionOptions, ConfirmOptions, ResultText, UseActionOptions } from './useAction';
export { putIssues, serverIssues } from './formIssues';
export type { Paged, TableQuery } from '../components/DataTable';
