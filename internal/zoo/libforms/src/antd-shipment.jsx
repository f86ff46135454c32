// Shipment: a Select with remote search (showSearch, filterOption={false},
// options fetched as the person types, the docs' "search and select"
// pattern) and a DatePicker whose date is typed into its input.
import { useRef, useState } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Select, Spin } from 'antd';

export function Shipment({ submit }) {
  const [form] = Form.useForm();
  const [options, setOptions] = useState([]);
  const [fetching, setFetching] = useState(false);
  const latest = useRef(0);
  const search = async (q) => {
    const id = ++latest.current;
    setOptions([]);
    if (!q) {
      setFetching(false);
      return;
    }
    setFetching(true);
    const res = await fetch('/antd-shipment/depots?q=' + encodeURIComponent(q));
    const found = await res.json();
    if (id !== latest.current) return; // a later search answers instead
    setOptions(found.map((d) => ({ label: d.label, value: d.label })));
    setFetching(false);
  };
  const finish = (v) => submit({
    sender: v.sender ?? '',
    email: v.email ?? '',
    depot: v.depot ?? '',
    parcels: v.parcels == null ? '' : String(v.parcels),
    ship_date: v.ship ? v.ship.format('YYYY-MM-DD') : '',
  });
  return (
    <Form form={form} layout="vertical" onFinish={finish}>
      <Form.Item label="Sender" name="sender"><Input /></Form.Item>
      <Form.Item label="E-mail" name="email"><Input /></Form.Item>
      <Form.Item label="Drop-off depot" name="depot">
        <Select showSearch filterOption={false} onSearch={search} placeholder="Type a town"
          notFoundContent={fetching ? <Spin size="small" /> : null} options={options} />
      </Form.Item>
      <Form.Item label="Parcels" name="parcels"><InputNumber min={1} max={20} /></Form.Item>
      <Form.Item label="Ship on" name="ship"><DatePicker format="YYYY-MM-DD" /></Form.Item>
      <Button type="primary" htmlType="submit">Book the pickup</Button>
    </Form>
  );
}
