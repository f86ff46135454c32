// Room booking: a RangePicker (two days clicked in its calendars), a
// Select, and a Checkbox that reveals the flight number field.
import { Button, Checkbox, DatePicker, Form, Input, Select } from 'antd';

export function Booking({ data, submit }) {
  const [form] = Form.useForm();
  const pickup = Form.useWatch('pickup', form);
  const finish = (v) => submit({
    guest: v.guest ?? '',
    email: v.email ?? '',
    check_in: v.stay ? v.stay[0].format('YYYY-MM-DD') : '',
    check_out: v.stay ? v.stay[1].format('YYYY-MM-DD') : '',
    room: v.room ?? '',
    pickup: !!v.pickup,
    flight: v.pickup ? (v.flight ?? '') : '',
  });
  return (
    <Form form={form} layout="vertical" onFinish={finish}>
      <Form.Item label="Guest name" name="guest"><Input /></Form.Item>
      <Form.Item label="E-mail" name="email"><Input /></Form.Item>
      <Form.Item label="Stay" name="stay"><DatePicker.RangePicker /></Form.Item>
      <Form.Item label="Room type" name="room">
        <Select placeholder="Choose a room" options={data.rooms.map((r) => ({ label: r, value: r }))} />
      </Form.Item>
      <Form.Item name="pickup" valuePropName="checked"><Checkbox>Airport pickup</Checkbox></Form.Item>
      {pickup && <Form.Item label="Flight number" name="flight"><Input /></Form.Item>}
      <Button type="primary" htmlType="submit">Book the room</Button>
    </Form>
  );
}
