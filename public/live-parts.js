// Parts of a page that follow the event's news (server-sent events from the address in
// `data-live-source`): an element with an id and `data-live="table"` (or "standings") is fetched
// again with the page and swapped in place when that news arrives, so a judges' queue, a round's
// tables (badges, clocks, report state) or a table's report show a dispute or a final report
// within a second, without the wasm. Forms inside stay plain forms; the one submit listener of
// the browser half still takes them over, being on the document, and the browser half ticks
// the clocks swapped in. A part someone is typing in is left as it is, and a folded section
// (`<details>` with an id) keeps whether it is open. `[data-live-stamp]` says when the page
// last followed the news.
(() => {
  const parts = () => Array.from(document.querySelectorAll("[data-live][id]"));
  const source = document.querySelector("[data-live-source]");
  if (!window.EventSource || !source || parts().length === 0) return;
  const stamp = () => document.querySelectorAll("[data-live-stamp]");
  const say = (text) => {
    for (const s of stamp()) s.textContent = text;
  };
  const time = () => new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  let timer;
  let lost = false;
  // The topics heard since the last fetch: news of both kinds often comes together (a report
  // made final is `table` and `standings` news), and one fetch serves them all.
  const topics = new Set();
  const typing = (part) => {
    const active = document.activeElement;
    return active && part.contains(active) && active.matches("input, textarea, select");
  };
  const load = (topic) => {
    topics.add(topic);
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const wanted = new Set(topics);
      topics.clear();
      try {
        const response = await fetch(location.href, { cache: "no-store" });
        if (!response.ok) return;
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        for (const part of parts()) {
          if (!wanted.has(null) && !wanted.has(part.dataset.live)) continue;
          const next = fresh.getElementById(part.id);
          // Someone is typing in this part: leave it be until they are done.
          if (!next || typing(part)) continue;
          const open = new Set(Array.from(part.querySelectorAll("details[id][open]"), (d) => d.id));
          part.replaceChildren(...Array.from(next.childNodes, (n) => document.importNode(n, true)));
          for (const d of part.querySelectorAll("details[id]")) {
            if (open.has(d.id)) d.open = true;
          }
        }
        say(`Live · updated ${time()}`);
      } catch (e) {
        // The next news, or a reload, brings it.
        for (const t of wanted) topics.add(t);
      }
    }, Math.random() * 300);
  };
  const events = new EventSource(source.getAttribute("data-live-source"));
  events.addEventListener("table", () => load("table"));
  events.addEventListener("standings", () => load("standings"));
  events.onerror = () => {
    lost = true;
    say("Reconnecting… (Refresh shows the latest)");
  };
  events.onopen = () => {
    say(`Live · follows the event as it changes (since ${time()})`);
    if (lost) {
      lost = false;
      load(null);
    }
  };
})();
