// Registers a passkey for the signed-in person (runtime/passkey's
// RegisterHandler): begin gives the options of navigator.credentials.create,
// finish verifies the new credential.
"use strict";
(function () {
  const status = document.getElementById("status");
  const fromB64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
  const toB64 = (buf) => {
    let s = "";
    for (const c of new Uint8Array(buf)) s += String.fromCharCode(c);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  };
  const post = (url, body) =>
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" });
  document.getElementById("register").addEventListener("click", async () => {
    try {
      const res = await post("begin", {});
      if (!res.ok) throw new Error(await res.text());
      const pk = (await res.json()).publicKey;
      pk.challenge = fromB64(pk.challenge);
      pk.user.id = fromB64(pk.user.id);
      for (const c of pk.excludeCredentials || []) c.id = fromB64(c.id);
      const cred = await navigator.credentials.create({ publicKey: pk });
      const done = await post("finish", {
        id: cred.id,
        rawId: toB64(cred.rawId),
        type: cred.type,
        response: {
          attestationObject: toB64(cred.response.attestationObject),
          clientDataJSON: toB64(cred.response.clientDataJSON),
          transports: cred.response.getTransports ? cred.response.getTransports() : [],
        },
      });
      if (!done.ok) throw new Error(await done.text());
      status.textContent = "Passkey registered.";
    } catch (e) {
      status.textContent = "Not registered: " + e.message;
    }
  });
})();
