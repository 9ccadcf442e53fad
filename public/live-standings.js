// The public standings follow the event's news (server-sent events from /events/<slug>/live):
// on `standings`, fetch the page again and swap <main>, keeping keyboard focus on the same link.
// A random delay of up to one second spreads a hall's phones instead of all asking at once.
(() => {
  const main = document.querySelector("main");
  const status = document.getElementById("updated");
  if (!window.EventSource || !main || !status) return;
  let timer;
  let lost = false;
  const load = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const response = await fetch(location.href, { cache: "no-store" });
        if (!response.ok) throw new Error(String(response.status));
        const fresh = new DOMParser()
          .parseFromString(await response.text(), "text/html")
          .querySelector("main");
        if (!fresh) throw new Error("no main");
        const focused = document.activeElement;
        const href = focused && main.contains(focused) && focused.getAttribute("href");
        main.replaceChildren(...fresh.childNodes);
        if (href) {
          const again = main.querySelector('a[href="' + CSS.escape(href) + '"]');
          if (again) again.focus();
        }
        status.textContent = "Updated " + new Date().toTimeString().slice(0, 8);
      } catch (e) {
        status.textContent = "Could not update: use Refresh";
      }
    }, Math.random() * 1000);
  };
  const events = new EventSource(location.pathname.replace(/standings$/, "live"));
  events.addEventListener("standings", load);
  events.onerror = () => {
    if (!lost) status.textContent = "Connection lost: retrying";
    lost = true;
  };
  events.onopen = () => {
    if (lost) {
      lost = false;
      load();
    }
  };
})();
