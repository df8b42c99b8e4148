// Copy buttons (no inline script under the site's CSP): <button data-copy="#field" hidden>
// copies the field's value and then reads its data-copied text. The button stays hidden
// without JavaScript, where the field itself can be selected and copied.
document.querySelectorAll("[data-copy]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => {
    const field = document.querySelector(button.dataset.copy);
    if (!field) return;
    field.select();
    const done = () => {
      button.textContent = button.dataset.copied;
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, () => {
        document.execCommand("copy");
        done();
      });
    } else {
      document.execCommand("copy");
      done();
    }
  });
});
