// @vitest-environment jsdom
// The list-and-edit patterns in a DOM: the form dialog's checks, refusals, answer and fresh form at
// each opening; the list's search, hidden and confirmed actions, batch actions and error state.
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App, Input } from 'antd';
import dayjs from 'dayjs';
import { State, role } from '@wt/contract';
import i18n from '../src/i18n';
import { ApiError } from '../src/api/client';
import { FormDialog, ListPage, searchQuery, useAction, type Paged } from '../src/patterns';
import { polyfillDom } from './dom';

// A dialog or table in jsdom takes seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await i18n.changeLanguage('en');
  polyfillDom();
});
afterEach(cleanup);

function wrap(
  ui: React.ReactNode,
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
) {
  return render(
    <QueryClientProvider client={client}>
      <App>{ui}</App>
    </QueryClientProvider>,
  );
}

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;

interface RoleValues {
  RoleId?: number;
  Name?: string;
  Color?: string;
}

/** A page with a role dialog opened by a button, as the screens use it. */
function RoleHarness(props: {
  submit: (v: RoleValues) => Promise<unknown>;
  onDone?: (r: unknown) => void;
  initial?: RoleValues;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>open</button>
      <FormDialog<RoleValues>
        open={open}
        title="Role"
        schema={role.saveRoleRequest}
        initial={props.initial ?? { Name: '', Color: 'blue' }}
        submit={props.submit}
        onDone={props.onDone}
        onClose={() => setOpen(false)}
        fields={[
          { name: 'Name', label: 'Name', input: <Input data-testid="name" /> },
          { name: 'Color', label: 'Color', input: <Input data-testid="color" /> },
        ]}
      />
    </>
  );
}

describe('FormDialog', () => {
  it('puts the schema’s issues under their fields and sends nothing', async () => {
    const submit = vi.fn(async () => ({}));
    wrap(<RoleHarness submit={submit} initial={{ Name: '' }} />);
    fireEvent.click(screen.getByText('open'));
    await screen.findByTestId('name');
    fireEvent.click(ok());
    await screen.findByText(t('messages:device.roleNameRequired'));
    expect(screen.getByText(t('messages:device.roleColorRequired'))).toBeTruthy();
    expect(
      screen.getByTestId('name').closest('.ant-form-item')!.classList.contains('ant-form-item-has-error'),
    ).toBe(true);
    expect(submit).not.toHaveBeenCalled();
    // Changing a field takes its refusal away.
    fireEvent.change(screen.getByTestId('name'), { target: { value: 'Drivers' } });
    const item = screen.getByTestId('name').closest('.ant-form-item')!;
    await waitFor(() => expect(item.classList.contains('ant-form-item-has-error')).toBe(false));
  });

  it('sends the initial keys with the fields, answers onDone with the result, and closes', async () => {
    const submit = vi.fn(async (v: RoleValues) => ({ Item: { ...v }, Token: 'secret' }));
    const onDone = vi.fn();
    wrap(<RoleHarness submit={submit} onDone={onDone} initial={{ RoleId: 7, Name: 'Old', Color: 'red' }} />);
    fireEvent.click(screen.getByText('open'));
    fireEvent.change(await screen.findByTestId('name'), { target: { value: 'New' } });
    fireEvent.click(ok());
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(submit.mock.calls[0]![0]).toMatchObject({ RoleId: 7, Name: 'New', Color: 'red' });
    expect(onDone.mock.calls[0]![0]).toEqual({
      Item: { RoleId: 7, Name: 'New', Color: 'red' },
      Token: 'secret',
    });
    await screen.findByText(t('widgets:form.saved'));
  });

  it('shows a server refusal naming a field under it, and any other as a message', async () => {
    let answer: Error = new ApiError(State.CONFLICT, 'common.validation', undefined, [
      { Field: 'Name', Message: 'device.roleNameExists' },
    ]);
    const submit = vi.fn(async () => {
      throw answer;
    });
    wrap(<RoleHarness submit={submit} initial={{ Name: 'Taken', Color: 'red' }} />);
    fireEvent.click(screen.getByText('open'));
    await screen.findByTestId('name');
    fireEvent.click(ok());
    const under = await screen.findByText(t('messages:device.roleNameExists'));
    expect(under.closest('.ant-form-item')).toBeTruthy();
    answer = new ApiError(State.CONFLICT, 'device.roleLimit', { max: 30 });
    fireEvent.click(ok());
    await screen.findByText(t('messages:device.roleLimit', { max: 30 }));
    // The dialog stays open with what was typed.
    expect((screen.getByTestId('name') as HTMLInputElement).value).toBe('Taken');
  });

  it('opens with a fresh form: nothing typed in an earlier opening comes back', async () => {
    function Twice() {
      const [editing, setEditing] = useState<RoleValues | null>(null);
      return (
        <>
          <button onClick={() => setEditing({ Name: '' })}>add</button>
          <button onClick={() => setEditing({ RoleId: 3, Name: 'Nurses', Color: 'green' })}>edit</button>
          <FormDialog<RoleValues>
            open={editing !== null}
            title="Role"
            schema={role.saveRoleRequest}
            initial={editing ?? {}}
            submit={async () => ({})}
            onClose={() => setEditing(null)}
            fields={[{ name: 'Name', label: 'Name', input: <Input data-testid="name" /> }]}
          />
        </>
      );
    }
    wrap(<Twice />);
    fireEvent.click(screen.getByText('add'));
    fireEvent.change(await screen.findByTestId('name'), { target: { value: 'half typed' } });
    fireEvent.click(screen.getByRole('button', { name: /Cancel/ }));
    fireEvent.click(screen.getByText('edit'));
    await waitFor(() =>
      expect(screen.getAllByTestId('name').map((e) => (e as HTMLInputElement).value)).toContain('Nurses'),
    );
    expect(screen.getAllByTestId('name').map((e) => (e as HTMLInputElement).value)).not.toContain(
      'half typed',
    );
  });
});

interface Row {
  Id: number;
  Name: string;
}
const ROWS: Row[] = Array.from({ length: 25 }, (_, i) => ({ Id: i + 1, Name: `Row ${i + 1}` }));

describe('ListPage', () => {
  it("splits a date range into the day bounds of its two query fields, as text the server reads in the account's zone", () => {
    const q = searchQuery(
      [{ type: 'dateRange', name: 'Range', label: 'Time', to: ['StartTime', 'EndTime'] }],
      { Range: [dayjs('2026-03-01T15:00:00'), dayjs('2026-03-02T08:00:00')], Name: '  x ', Empty: '' },
    );
    expect(q).toEqual({
      StartTime: '2026-03-01 00:00:00.000',
      EndTime: '2026-03-02 23:59:59.999',
      Name: 'x',
    });
  });

  it('asks with the search and the page, hides actions the user may not use, confirms before a call and reloads', async () => {
    const asked: Record<string, unknown>[] = [];
    let rows = [...ROWS];
    const remove = vi.fn(async (id: number) => {
      rows = rows.filter((r) => r.Id !== id);
    });
    wrap(
      <ListPage<Row, { Name?: string }>
        testId="rows"
        queryKey={['rows']}
        rowKey="Id"
        search={[
          { type: 'text', name: 'Name', label: 'Name' },
          { type: 'text', name: 'Secret', label: 'Secret field', visible: false },
        ]}
        fetch={async (q): Promise<Paged<Row>> => {
          asked.push(q);
          const match = rows.filter((r) => !q.Name || r.Name.includes(q.Name));
          return {
            Total: match.length,
            Items: match.slice(
              ((q.PageNo ?? 1) - 1) * (q.PageCount ?? 20),
              (q.PageNo ?? 1) * (q.PageCount ?? 20),
            ),
          };
        }}
        columns={[{ key: 'Name', title: 'Name', dataIndex: 'Name' }]}
        toolbar={[
          { key: 'add', label: 'Add row', primary: true, onClick: () => undefined },
          { key: 'hidden', label: 'Hidden button', visible: false },
        ]}
        rowActions={(r) => [
          { key: 'edit', label: 'Edit', visible: false },
          {
            key: 'delete',
            label: 'Delete',
            danger: true,
            testId: `delete-${r.Id}`,
            confirm: `Delete ${r.Name}?`,
            run: () => remove(r.Id),
            success: 'Deleted',
          },
        ]}
      />,
    );
    await screen.findByText('Row 1');
    expect(asked[0]).toEqual({ PageNo: 1, PageCount: 20 });
    expect(screen.queryByText('Secret field')).toBeNull();
    expect(screen.queryByText('Hidden button')).toBeNull();
    expect(screen.queryByText('Edit')).toBeNull();
    expect(screen.getByText('Add row')).toBeTruthy();

    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Row 2' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(asked.at(-1)).toEqual({ Name: 'Row 2', PageNo: 1, PageCount: 20 }));
    await waitFor(() => expect(screen.queryByText('Row 1')).toBeNull());

    fireEvent.click(screen.getByTestId('delete-2'));
    expect(remove).not.toHaveBeenCalled();
    const pop = await screen.findByText('Delete Row 2?');
    fireEvent.click(within(pop.closest('.ant-popover')! as HTMLElement).getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(2));
    await screen.findByText('Deleted');
    // The list is asked again and the row is gone.
    await waitFor(() => expect(screen.queryByTestId('delete-2')).toBeNull());
  });

  it('enables a batch action with a selection and hands it the selected keys', async () => {
    const batch = vi.fn(async (_keys: unknown[]) => undefined);
    wrap(
      <ListPage<Row>
        queryKey={['batch-rows']}
        rowKey="Id"
        paging="client"
        fetch={async () => ({ Total: 3, Items: ROWS.slice(0, 3) })}
        columns={[{ key: 'Name', title: 'Name', dataIndex: 'Name' }]}
        toolbar={[
          { key: 'remove', label: 'Remove selected', batch: true, run: (ctx) => batch(ctx.selectedKeys) },
        ]}
      />,
    );
    await screen.findByText('Row 1');
    const button = screen.getByRole('button', { name: /Remove selected/ }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const boxes = screen.getAllByRole('checkbox');
    // The first box selects the page; the next ones are the rows.
    fireEvent.click(boxes[1]!);
    fireEvent.click(boxes[3]!);
    await waitFor(() =>
      expect((screen.getByRole('button', { name: /Remove selected/ }) as HTMLButtonElement).disabled).toBe(
        false,
      ),
    );
    expect(screen.getByRole('button', { name: /Remove selected/ }).textContent).toContain('(2)');
    fireEvent.click(screen.getByRole('button', { name: /Remove selected/ }));
    await waitFor(() => expect(batch).toHaveBeenCalledWith([1, 3]));
    // The selection is cleared after success.
    await waitFor(() =>
      expect((screen.getByRole('button', { name: /Remove selected/ }) as HTMLButtonElement).disabled).toBe(
        true,
      ),
    );
  });

  it('shows a failed list with its reason and asks again on retry', async () => {
    let fail = true;
    wrap(
      <ListPage<Row>
        queryKey={['failing-rows']}
        rowKey="Id"
        fetch={async () => {
          if (fail) throw new ApiError(State.FORBIDDEN, 'account.notInScope');
          return { Total: 1, Items: ROWS.slice(0, 1) };
        }}
        columns={[{ key: 'Name', title: 'Name', dataIndex: 'Name' }]}
      />,
    );
    await screen.findByText(t('messages:account.notInScope'));
    fail = false;
    fireEvent.click(screen.getByTestId('table-retry'));
    await screen.findByText('Row 1');
  });
});

describe('useAction', () => {
  it('tells which call is under way and shows its success', async () => {
    let finish: () => void = () => undefined;
    function Switches() {
      const toggle = useAction(
        (id: number) => new Promise<{ id: number }>((r) => (finish = () => r({ id }))),
        {
          success: (r) => `Switched ${r.id}`,
        },
      );
      return (
        <>
          {[1, 2].map((id) => (
            <button key={id} onClick={() => void toggle.run(id)}>
              {toggle.pending?.[0] === id ? `busy ${id}` : `switch ${id}`}
            </button>
          ))}
        </>
      );
    }
    wrap(<Switches />);
    fireEvent.click(screen.getByText('switch 2'));
    await screen.findByText('busy 2');
    expect(screen.getByText('switch 1')).toBeTruthy();
    await act(async () => finish());
    await screen.findByText('Switched 2');
    expect(screen.getByText('switch 2')).toBeTruthy();
  });
});
