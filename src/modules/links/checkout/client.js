// The hosted checkout page's script: validates the form, starts the charge, shows the BR Code and
// follows the payment until it is paid or expired; the copy button is the shared copy.js. Plain
// ES2020, no framework; data comes from the page's JSON block, text goes in with textContent only.
(() => {
  const data = JSON.parse(document.getElementById('checkout-data').textContent);
  const t = data.messages;
  const base = `/pay/${encodeURIComponent(data.slug)}`;
  const $ = (id) => document.getElementById(id);
  const form = $('checkout-form');

  const digits = (text) => [...text].map((c) => c.charCodeAt(0) - 48);
  const checkDigit = (values, weights) => {
    const rest = values.reduce((sum, v, i) => sum + v * weights[i], 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  // The same rules as the server (src/providers/pix/keys.ts), alphanumeric CNPJ included.
  const validCpf = (s) => {
    if (!/^[0-9]{11}$/.test(s) || /^(\d)\1{10}$/.test(s)) return false;
    const d = digits(s);
    return (
      d[9] === checkDigit(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) &&
      d[10] === checkDigit(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
    );
  };
  const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const validCnpj = (s) => {
    if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(s) || /^(\d)\1{13}$/.test(s)) return false;
    const v = digits(s);
    return (
      v[12] === checkDigit(v.slice(0, 12), CNPJ_WEIGHTS.slice(1)) &&
      v[13] === checkDigit(v.slice(0, 13), CNPJ_WEIGHTS)
    );
  };
  const bareDocument = (text) => text.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

  // "1.234,56", "1234,5", "1234.56" or "1,234.56" → minor units as a string, without floats: the
  // last separator followed by one or two digits is the decimal one; any other groups thousands.
  const minorUnits = (text) => {
    const m = /^(.*?)(?:[.,](\d{1,2}))?$/.exec(text.replace(/[\sR$]/g, ''));
    const units = m[1];
    if (!/^\d{1,3}(?:([.,])\d{3}(?:\1\d{3})*)?$/.test(units) && !/^\d{1,14}$/.test(units)) return null;
    const minor = `${units.replace(/[.,]/g, '')}${(m[2] || '').padEnd(2, '0')}`.replace(/^0+(?=\d)/, '');
    return minor.length > 16 || /^0+$/.test(minor) ? null : minor;
  };

  const showError = (input, message) => {
    const error = $(`${input.id}-error`);
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    error.textContent = message || '';
    error.hidden = !message;
    return !message;
  };

  // One Idempotency-Key per page load and form content: a re-send of the same form (its answer lost
  // to a dropped connection) replays the charge already made instead of making a second one; a
  // changed form is a new request and gets a new key. getRandomValues works outside HTTPS too.
  const newKey = () =>
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  let sent = { key: newKey(), body: '' };
  const keyFor = (body) => {
    if (sent.body && sent.body !== body) sent = { key: newKey(), body };
    sent.body = body;
    return sent.key;
  };

  const setStatus = (state, text) => {
    const status = $('status');
    status.dataset.state = state;
    status.textContent = text;
  };

  const follow = (id) => {
    const ask = async () => {
      try {
        const res = await fetch(`${base}/payments/${id}`, { headers: { accept: 'application/json' } });
        if (res.ok) {
          const { data: payment } = await res.json();
          if (payment.status === 'completed' || payment.status === 'refunded')
            return setStatus('completed', t.paid);
          if (payment.status === 'expired') return setStatus('expired', t.expired);
          if (payment.status === 'failed') return setStatus('failed', t.failed);
        }
      } catch {
        // A dropped connection is retried on the next round.
      }
      setTimeout(ask, data.pollMs);
    };
    setTimeout(ask, data.pollMs);
  };

  const show = (charge) => {
    $('qr').src = charge.qr_code_png;
    $('brcode').value = charge.pix_qr_code;
    $('valid-until').textContent = new Date(charge.expires_at).toLocaleString(data.locale);
    form.hidden = true;
    $('result').hidden = false;
    $('result-title').focus();
    setStatus('waiting', t.waiting);
    follow(charge.id);
  };

  const documentProblem = (bare) => {
    if (bare === '') return t.missingDocument;
    return validCpf(bare) || validCnpj(bare) ? '' : t.invalidDocument;
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = $('payer-name');
    const doc = $('payer-document');
    const amountInput = $('amount');
    const amount = amountInput ? minorUnits(amountInput.value) : undefined;
    const bare = bareDocument(doc.value);
    const ok = [
      amountInput ? showError(amountInput, amount ? '' : t.invalidAmount) : true,
      showError(name, name.value.trim() ? '' : t.invalidName),
      // Nothing typed is a missing answer, not a wrong one: the message asks for it.
      showError(doc, documentProblem(bare)),
    ];
    if (ok.includes(false)) {
      form.querySelector('[aria-invalid="true"]').focus();
      return;
    }
    const submit = $('submit');
    submit.disabled = true;
    submit.textContent = t.working;
    $('form-error').hidden = true;
    try {
      const body = { payer: { name: name.value.trim(), document: bare } };
      if (amount) body.amount_minor = amount;
      const json = JSON.stringify(body);
      const res = await fetch(`${base}/checkout`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'idempotency-key': keyFor(json),
        },
        body: json,
      });
      const answer = await res.json();
      if (!res.ok) throw new Error(answer.message || t.failedToStart);
      show(answer.data);
    } catch (error) {
      $('form-error').textContent = `${t.failedToStart} (${error.message})`;
      $('form-error').hidden = false;
      submit.disabled = false;
      submit.textContent = t.submit;
    }
  });
})();
