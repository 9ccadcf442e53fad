// Parts of a page that follow the event's news (server-sent events from the address in
// `data-live-source`): an element with an id and `data-live="table"` (or "standings") is fetched
// again with the page and swapped in place when that news arrives, so a judges' queue or a
// player's "awaits your confirmation" shows a dispute or a report within a second, without the
// wasm. Forms inside stay plain forms; the one submit listener of the browser half still takes
// them over, being on the document.
(() => {
  const parts = () => Array.from(document.querySelectorAll("[data-live][id]"));
  const source = document.querySelector("[data-live-source]");
  if (!window.EventSource || !source || parts().length === 0) return;
  let timer;
  let lost = false;
  const load = (topic) => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const response = await fetch(location.href, { cache: "no-store" });
        if (!response.ok) return;
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        for (const part of parts()) {
          if (topic && part.dataset.live !== topic) continue;
          const next = fresh.getElementById(part.id);
          // Someone is typing in this part: leave it be until they are done.
          if (!next || part.contains(document.activeElement) && document.activeElement.matches("input, textarea, select")) continue;
          part.replaceChildren(...next.childNodes);
        }
      } catch (e) {
        // The next news, or a reload, brings it.
      }
    }, Math.random() * 300);
  };
  const events = new EventSource(source.getAttribute("data-live-source"));
  events.addEventListener("table", () => load("table"));
  events.addEventListener("standings", () => load("standings"));
  events.onerror = () => { lost = true; };
  events.onopen = () => {
    if (lost) {
      lost = false;
      load(null);
    }
  };
})();
