// Mantine forms: stock components used as Mantine's docs show them.
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import { MantineProvider } from '@mantine/core';
import { mount } from './page.jsx';
import { Gift } from './mantine-gift.jsx';
import { Club } from './mantine-club.jsx';

mount({ 'mantine-gift': Gift, 'mantine-club': Club }, (page) => <MantineProvider>{page}</MantineProvider>);
