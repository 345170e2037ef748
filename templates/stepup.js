// The passkey step-up of the hosted form page (package runtime/page),
// served beside a page whose question was asked with runtime.WithStepUp.
// Before an accept posts, it asks the page for a challenge bound to the
// question and this answer, gets an assertion with user verification
// from the person's passkey (navigator.credentials.get), and posts the
// answer with it. A decline posts as it is.
"use strict";
(function () {
  const form = document.querySelector("form");
  if (!form || !form.elements.elicit_assertion) return;
  const status = document.getElementById("stepup");
  const fromB64 = (s) => {
    const b = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
  };
  const toB64 = (buf) => {
    if (!buf) return null;
    let s = "";
    for (const c of new Uint8Array(buf)) s += String.fromCharCode(c);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  let submitting = false;
  form.addEventListener("submit", async (ev) => {
    const button = ev.submitter;
    if (submitting || !button || button.value !== "accept") return;
    ev.preventDefault();
    const body = new URLSearchParams(new FormData(form, button));
    body.set("elicit_stepup", "begin");
    let res;
    try {
      // form.action is the buttons named "action": read the attribute.
      res = await fetch(form.getAttribute("action"), { method: "POST", body, credentials: "same-origin" });
    } catch (e) {
      status.textContent = String(e);
      return;
    }
    if (!res.ok || !(res.headers.get("Content-Type") || "").startsWith("application/json")) {
      // An invalid answer or a refusal: post it as it is, for the page
      // to say why.
      submitting = true;
      form.requestSubmit(button);
      return;
    }
    const { nonce, options } = await res.json();
    const pk = options.publicKey;
    pk.challenge = fromB64(pk.challenge);
    for (const c of pk.allowCredentials || []) c.id = fromB64(c.id);
    let cred;
    try {
      cred = await navigator.credentials.get({ publicKey: pk });
    } catch (e) {
      status.textContent = String(e);
      return;
    }
    form.elements.elicit_stepup.value = nonce;
    form.elements.elicit_assertion.value = JSON.stringify({
      id: cred.id,
      rawId: toB64(cred.rawId),
      type: cred.type,
      response: {
        authenticatorData: toB64(cred.response.authenticatorData),
        clientDataJSON: toB64(cred.response.clientDataJSON),
        signature: toB64(cred.response.signature),
        userHandle: toB64(cred.response.userHandle),
      },
    });
    submitting = true;
    form.requestSubmit(button);
  });
})();
