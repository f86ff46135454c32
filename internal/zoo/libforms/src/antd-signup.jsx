// Conference registration: a multiple Select (type to filter, Enter or
// click to add a tag), a DatePicker (a day clicked in its calendar) and a
// Checkbox.Group with one box ticked by default.
import { Button, Checkbox, DatePicker, Form, Input, Select } from 'antd';

export function Signup({ data, submit }) {
  const [form] = Form.useForm();
  const finish = (v) => submit({
    name: v.name ?? '',
    email: v.email ?? '',
    topics: v.topics ?? [],
    session_date: v.session ? v.session.format('YYYY-MM-DD') : '',
    meals: v.meals ?? [],
  });
  return (
    <Form form={form} layout="vertical" initialValues={{ meals: data.mealsDefault }} onFinish={finish}>
      <Form.Item label="Full name" name="name"><Input /></Form.Item>
      <Form.Item label="E-mail" name="email"><Input /></Form.Item>
      <Form.Item label="Topics" name="topics">
        <Select mode="multiple" allowClear placeholder="Type to find topics"
          options={data.topics.map((t) => ({ label: t, value: t }))} />
      </Form.Item>
      <Form.Item label="Session day" name="session"><DatePicker /></Form.Item>
      <Form.Item label="Meals" name="meals"><Checkbox.Group options={data.meals} /></Form.Item>
      <Button type="primary" htmlType="submit">Register</Button>
    </Form>
  );
}
