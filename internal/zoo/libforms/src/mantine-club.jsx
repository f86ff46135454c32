// Club membership: a Checkbox.Group with one box ticked by default and a
// DatePickerInput type="range" whose two days are clicked in its calendar.
import { useState } from 'react';
import { Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';

export function Club({ data, submit }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [interests, setInterests] = useState(data.interestsDefault);
  const [period, setPeriod] = useState([null, null]);
  const send = (e) => {
    e.preventDefault();
    submit({ name, email, interests, starts: period[0] ?? '', ends: period[1] ?? '' });
  };
  return (
    <form onSubmit={send}>
      <Stack gap="sm">
        <TextInput label="Member name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="E-mail" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <Checkbox.Group label="Interests" value={interests} onChange={setInterests}>
          <Group mt="xs">{data.interests.map((i) => <Checkbox key={i} value={i} label={i} />)}</Group>
        </Checkbox.Group>
        <DatePickerInput type="range" label="Membership period" placeholder="Pick the first and last day" value={period} onChange={setPeriod} />
        <Button type="submit">Join the club</Button>
      </Stack>
    </form>
  );
}
