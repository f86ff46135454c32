// Volunteer sign-up: a DateField typed segment by segment and a ListBox
// with selectionMode="multiple" where a click toggles an option.
import { useState } from 'react';
import {
  Button, DateField, DateInput, DateSegment, Form, Input, Label, ListBox, ListBoxItem, TextField,
} from 'react-aria-components';

export function Volunteer({ data, submit }) {
  const [born, setBorn] = useState(null);
  const [langs, setLangs] = useState(new Set(data.languagesDefault));
  const send = (e) => {
    e.preventDefault();
    const fd = Object.fromEntries(new FormData(e.currentTarget));
    submit({ name: fd.name, email: fd.email, birth_date: born ? born.toString() : '', languages: [...langs] });
  };
  return (
    <Form onSubmit={send}>
      <TextField name="name"><Label>Full name</Label><Input /></TextField>
      <TextField name="email"><Label>E-mail</Label><Input /></TextField>
      <DateField value={born} onChange={setBorn}>
        <Label>Date of birth</Label>
        <DateInput>{(segment) => <DateSegment segment={segment} />}</DateInput>
      </DateField>
      <span className="label" id="languages-label">Languages spoken</span>
      <ListBox aria-labelledby="languages-label" selectionMode="multiple" selectedKeys={langs}
        onSelectionChange={setLangs} items={data.languages.map((l) => ({ id: l }))}>
        {(item) => <ListBoxItem>{item.id}</ListBoxItem>}
      </ListBox>
      <Button type="submit">Sign up</Button>
    </Form>
  );
}
