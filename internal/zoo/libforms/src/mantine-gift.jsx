// Gift order: a searchable MultiSelect (type, then Enter or click), a
// Select, a DatePickerInput (a day clicked in its calendar) and a
// "Gift wrap" Checkbox that reveals the gift message.
import { useState } from 'react';
import { Button, Checkbox, MultiSelect, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';

export function Gift({ data, submit }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [products, setProducts] = useState(data.productsDefault);
  const [shipping, setShipping] = useState(null);
  const [delivery, setDelivery] = useState(null);
  const [wrap, setWrap] = useState(false);
  const [message, setMessage] = useState('');
  const send = (e) => {
    e.preventDefault();
    submit({ name, email, products, shipping: shipping ?? '', delivery_date: delivery ?? '', gift_wrap: wrap, gift_message: wrap ? message : '' });
  };
  return (
    <form onSubmit={send}>
      <Stack gap="sm">
        <TextInput label="Your name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="E-mail" value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <MultiSelect label="Products" placeholder="Type to search" data={data.products} value={products} onChange={setProducts} searchable />
        <Select label="Shipping" placeholder="Choose a shipping method" data={data.shipping} value={shipping} onChange={setShipping} />
        <DatePickerInput label="Delivery date" placeholder="Pick a date" value={delivery} onChange={setDelivery} />
        <Checkbox label="Gift wrap" checked={wrap} onChange={(e) => setWrap(e.currentTarget.checked)} />
        {wrap && <Textarea label="Gift message" value={message} onChange={(e) => setMessage(e.currentTarget.value)} />}
        <Button type="submit">Place the order</Button>
      </Stack>
    </form>
  );
}
