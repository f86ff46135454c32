// antd forms: stock components used as antd's docs show them.
import { mount } from './page.jsx';
import { Signup } from './antd-signup.jsx';
import { Booking } from './antd-booking.jsx';
import { Shipment } from './antd-shipment.jsx';

mount({ 'antd-signup': Signup, 'antd-booking': Booking, 'antd-shipment': Shipment });
