// The copy button beside a hosted page's BR Code: copies the code, or selects it for the payer to
// copy where the clipboard is refused. Plain ES2020; its two messages are the button's data-* attributes.
(() => {
  const button = document.getElementById('copy');
  if (!button) return;
  button.addEventListener('click', async () => {
    const code = document.getElementById('brcode');
    const status = document.getElementById('copy-status');
    try {
      await navigator.clipboard.writeText(code.value);
      status.textContent = button.dataset.copied;
    } catch {
      code.select();
      status.textContent = document.execCommand('copy') ? button.dataset.copied : button.dataset.copyFailed;
    }
  });
})();
