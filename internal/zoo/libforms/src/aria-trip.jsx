// Trip request: a ComboBox whose options load from the server as the
// person types (useAsyncList, as the docs' async example), a DatePicker
// whose day is clicked in its calendar, and a CheckboxGroup.
import { useState } from 'react';
import {
  Button, Calendar, CalendarCell, CalendarGrid, Checkbox, CheckboxGroup, ComboBox, DateInput, DatePicker,
  DateSegment, Dialog, Form, Group, Heading, Input, Label, ListBox, ListBoxItem, Popover, TextField,
} from 'react-aria-components';
import { useAsyncList } from 'react-stately';

export function Trip({ data, submit }) {
  const airports = useAsyncList({
    async load({ signal, filterText }) {
      const res = await fetch('/aria-trip/airports?q=' + encodeURIComponent(filterText), { signal });
      return { items: await res.json() };
    },
  });
  const [to, setTo] = useState(null);
  const [depart, setDepart] = useState(null);
  const [needs, setNeeds] = useState(data.needsDefault);
  const send = (e) => {
    e.preventDefault();
    const fd = Object.fromEntries(new FormData(e.currentTarget));
    submit({ name: fd.name, email: fd.email, destination: to ?? '', depart: depart ? depart.toString() : '', needs });
  };
  return (
    <Form onSubmit={send}>
      <TextField name="name"><Label>Traveller</Label><Input /></TextField>
      <TextField name="email"><Label>E-mail</Label><Input /></TextField>
      <ComboBox items={airports.items} inputValue={airports.filterText} onInputChange={airports.setFilterText}
        onSelectionChange={setTo} allowsEmptyCollection>
        <Label>Destination airport</Label>
        <div className="combo"><Input /><Button>▼</Button></div>
        <Popover>
          <ListBox renderEmptyState={() => <div className="empty">{airports.isLoading ? 'Searching…' : 'No airport found'}</div>}>
            {(a) => <ListBoxItem id={a.label}>{a.label}</ListBoxItem>}
          </ListBox>
        </Popover>
      </ComboBox>
      <DatePicker value={depart} onChange={setDepart}>
        <Label>Departure</Label>
        <Group>
          <DateInput>{(segment) => <DateSegment segment={segment} />}</DateInput>
          <Button>▼</Button>
        </Group>
        <Popover>
          <Dialog>
            <Calendar>
              <header>
                <Button slot="previous">◀</Button>
                <Heading />
                <Button slot="next">▶</Button>
              </header>
              <CalendarGrid>{(date) => <CalendarCell date={date} />}</CalendarGrid>
            </Calendar>
          </Dialog>
        </Popover>
      </DatePicker>
      <CheckboxGroup value={needs} onChange={setNeeds}>
        <Label>Travel needs</Label>
        {data.needs.map((n) => (
          <Checkbox key={n} value={n}>
            <div className="checkbox" aria-hidden="true">
              <svg viewBox="0 0 18 18"><polyline points="1 9 7 14 15 4" /></svg>
            </div>{n}
          </Checkbox>
        ))}
      </CheckboxGroup>
      <Button type="submit">Send the request</Button>
    </Form>
  );
}
