// React Aria Components forms: stock components used as the docs show
// them, with the docs' plain class names styled in aria.css.
import { I18nProvider } from 'react-aria-components';
import { mount } from './page.jsx';
import { Volunteer } from './aria-volunteer.jsx';
import { Trip } from './aria-trip.jsx';
import { Leave } from './aria-leave.jsx';
import './aria.css';

mount({ 'aria-volunteer': Volunteer, 'aria-trip': Trip, 'aria-leave': Leave }, (page) => <I18nProvider locale="en-US">{page}</I18nProvider>);
