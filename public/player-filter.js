// Check-in at the door: the players' search box filters the list as one types. Without this
// script the box is a plain GET form (`?q=`) the server answers; with it the same rows are
// hidden and shown in place, by the server's own rule (`db::players::search`):
// - each row carries its name as the server folds it (`data-name`: ASCII, lower case, letters and
//   digits, words separated by one space), and every word typed must be somewhere in it;
// - a query in plain ASCII folds here exactly as the server folds it (for ASCII the
//   transliteration changes nothing); anything else ("Mü", "Sø") is folded by the server:
//   the page is fetched with `?q=` and its rows' `hidden` marks are copied.
// The address follows the box (`?q=`), so a check-in, which reloads the page, keeps the filter.
(() => {
  const form = document.querySelector("form[data-player-filter]");
  const input = form && form.querySelector("input[name=q]");
  const list = document.getElementById("player-list");
  const status = document.querySelector("[data-filter-status]");
  if (!input || !list) return;
  const rows = () => Array.from(list.querySelectorAll("tbody tr[data-name]"));
  const fold = (text) =>
    text
      .toLowerCase()
      .split(/[\s\-\/,]+/)
      .map((word) => word.replace(/[^a-z0-9]/g, ""))
      .filter((word) => word !== "")
      .join(" ");
  const say = (query, found) => {
    if (!status) return;
    if (query.trim() === "") status.textContent = "";
    else if (found === 0) status.textContent = "Nobody of that name. Check the spelling; any part of the name will do.";
    else if (found === 1) status.textContent = "1 player found.";
    else status.textContent = `${found} players found.`;
  };
  const remember = (query) => {
    const url = new URL(location.href);
    if (query.trim() === "") url.searchParams.delete("q");
    else url.searchParams.set("q", query);
    history.replaceState(history.state, "", url);
  };
  let asked = 0;
  const filter = async () => {
    const query = input.value;
    const ask = ++asked;
    remember(query);
    const words = fold(query);
    if (query.trim() === "" || /^[\x00-\x7f]*$/.test(query)) {
      const wanted = words === "" ? [] : words.split(" ");
      let found = 0;
      for (const row of rows()) {
        const name = row.getAttribute("data-name");
        row.hidden = wanted.length > 0 && !wanted.every((word) => name.includes(word));
        if (!row.hidden) found += 1;
      }
      say(query, found);
      return;
    }
    try {
      const url = new URL(location.pathname, location.href);
      url.searchParams.set("q", query);
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok || ask !== asked) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
      const shown = new Set(
        Array.from(fresh.querySelectorAll("#player-list tbody tr[data-player]:not([hidden])"))
          .map((row) => row.getAttribute("data-player")),
      );
      if (ask !== asked) return;
      for (const row of rows()) row.hidden = !shown.has(row.getAttribute("data-player"));
      say(query, shown.size);
    } catch (e) {
      // Enter still searches on the server.
    }
  };
  input.addEventListener("input", filter);
})();
