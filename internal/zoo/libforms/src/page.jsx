// The frame every library form shares: it reads the page's data (the
// options the Go site defines), posts the form's values as JSON the way the
// zoo's other fetch forms do, opens the stored record on success, and shows
// the server's refusal in a role=alert.
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

export function mount(forms, wrap = (x) => x) {
  const data = JSON.parse(document.getElementById('zoo-data').textContent);
  const Form = forms[data.form];
  createRoot(document.getElementById('app')).render(wrap(<Page Form={Form} data={data} />));
}

function Page({ Form, data }) {
  const [errors, setErrors] = useState([]);
  const submit = async (values) => {
    setErrors([]);
    try {
      const res = await fetch('/' + data.form, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(values),
      });
      const out = await res.json();
      if (res.ok) {
        location.assign('/' + data.form + '/records/' + out.id);
        return;
      }
      setErrors(out.errors || ['Nothing was saved.']);
    } catch {
      setErrors(['The server did not answer; nothing was saved.']);
    }
  };
  return (
    <>
      <Form data={data} submit={submit} />
      <div role="alert" className="zoo-alert">
        {errors.length > 0 && <><p>Nothing was saved. Please fix:</p><ul>{errors.map((e) => <li key={e}>{e}</li>)}</ul></>}
      </div>
    </>
  );
}
