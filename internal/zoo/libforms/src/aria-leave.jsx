// Leave request: a DateRangePicker whose start and end are typed segment
// by segment, and a Select (a button that opens a ListBox in a Popover).
import { useState } from 'react';
import {
  Button, DateInput, DateRangePicker, DateSegment, Form, Group, Input, Label, ListBox, ListBoxItem, Popover,
  Select, SelectValue, TextField,
} from 'react-aria-components';

export function Leave({ data, submit }) {
  const [range, setRange] = useState(null);
  const [kind, setKind] = useState(null);
  const send = (e) => {
    e.preventDefault();
    const fd = Object.fromEntries(new FormData(e.currentTarget));
    submit({
      name: fd.name, email: fd.email, kind: kind ?? '',
      first_day: range ? range.start.toString() : '', last_day: range ? range.end.toString() : '',
    });
  };
  return (
    <Form onSubmit={send}>
      <TextField name="name"><Label>Employee</Label><Input /></TextField>
      <TextField name="email"><Label>E-mail</Label><Input /></TextField>
      <Select selectedKey={kind} onSelectionChange={setKind}>
        <Label>Kind of leave</Label>
        <Button><SelectValue /><span aria-hidden="true">▼</span></Button>
        <Popover>
          <ListBox items={data.kinds.map((k) => ({ id: k }))}>{(k) => <ListBoxItem>{k.id}</ListBoxItem>}</ListBox>
        </Popover>
      </Select>
      <DateRangePicker value={range} onChange={setRange}>
        <Label>Dates away</Label>
        <Group>
          <DateInput slot="start">{(segment) => <DateSegment segment={segment} />}</DateInput>
          <span aria-hidden="true">–</span>
          <DateInput slot="end">{(segment) => <DateSegment segment={segment} />}</DateInput>
        </Group>
      </DateRangePicker>
      <Button type="submit">Ask for leave</Button>
    </Form>
  );
}
