"""The measuring half of script/bench: page weights, load runs with wrk, and one table.

script/bench builds and starts a release Mentat on 127.0.0.1, seeds an event (`mentat seed`),
runs the criterion benchmarks, then calls this with their output. Standard library only.
Every load run is bounded: wrk runs for a fixed number of seconds against 127.0.0.1 only.
"""

import argparse
import asyncio
import datetime
import gzip
import json
import os
import platform
import re
import subprocess
import sys
import urllib.parse
import urllib.request

WRK_REPORT = r"""
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nRESULT {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,' ..
    '"max_us":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.bytes, latency:percentile(50),
    latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def fetch(url, cookie=None, data=None, gzip_ok=True):
    """(status, bytes on the wire, bytes of content, body) for one request."""
    headers = {"Accept-Encoding": "gzip"} if gzip_ok else {}
    if cookie:
        headers["Cookie"] = cookie
    if data is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Accept"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        wire = response.read()
        body = gzip.decompress(wire) if response.headers.get("Content-Encoding") == "gzip" else wire
        return response.status, len(wire), len(body), body, response.headers


def sign_in(base, seed):
    data = urllib.parse.urlencode({"login": seed["head_judge"], "password": seed["password"]}).encode()
    request = urllib.request.Request(
        base + seed["sign_in_path"],
        data=data,
        # Mentat refuses a state-changing request that does not say which page sent it.
        headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json",
                 "Origin": base.rstrip("/")},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        for value in response.headers.get_all("Set-Cookie") or []:
            if value.startswith("mentat_session="):
                return value.split(";")[0]
    raise SystemExit("bench: signing in as the seeded head judge gave no session cookie")


def weights(base, seed):
    slug, player = seed["slug"], seed["player_id"]
    out = {}
    for name, path in [
        ("standings", f"/events/{slug}/standings"),
        ("player", f"/events/{slug}/find/{player}"),
    ]:
        _, wire, raw, _, _ = fetch(base + path)
        out[name] = {"path": path, "raw_bytes": raw, "gzip_bytes": wire}
    # A judge's first load: the dashboard's HTML and every file it makes the browser fetch.
    cookie = sign_in(base, seed)
    _, wire, raw, html, _ = fetch(base + f"/events/{slug}/run", cookie=cookie)
    parts = {"html": (wire, raw)}
    text = html.decode("utf-8", "replace")
    assets = set(re.findall(r'/pkg/[A-Za-z0-9_.\-]+\.(?:js|css|wasm)', text))
    # The page names the JS and wasm in its preload links (hashed names in a release); an
    # older build without them is asked for the usual names.
    if not any(a.endswith(".wasm") for a in assets):
        assets |= {"/pkg/mentat.js", "/pkg/mentat.wasm", "/pkg/mentat.css"}
    names = sorted(assets)
    for path in names:
        try:
            _, wire, raw, _, _ = fetch(base + path)
        except urllib.error.HTTPError:
            continue
        parts[path] = (wire, raw)
    out["judge_first_load"] = {
        "path": f"/events/{slug}/run",
        "gzip_bytes": sum(w for w, _ in parts.values()),
        "raw_bytes": sum(r for _, r in parts.values()),
        "parts": {k: {"gzip_bytes": w, "raw_bytes": r} for k, (w, r) in parts.items()},
    }
    return out


def wrk(url, connections, seconds, lua):
    threads = min(2, connections)
    command = [
        "wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s",
        "-H", "Accept-Encoding: gzip", "-s", lua, url,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=False)
    line = next((l for l in done.stdout.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"bench: wrk printed no result:\n{done.stdout}\n{done.stderr}")
    result = json.loads(line[len("RESULT "):])
    secs = result["duration_us"] / 1e6
    errors = sum(result["errors"].values())
    return {
        "connections": connections,
        "seconds": round(secs, 2),
        "requests": result["requests"],
        "rps": round(result["requests"] / secs, 1) if secs else 0.0,
        "p50_ms": result["p50_us"] / 1000,
        "p90_ms": result["p90_us"] / 1000,
        "p99_ms": result["p99_us"] / 1000,
        "max_ms": result["max_us"] / 1000,
        "errors": errors,
        "error_kinds": result["errors"],
    }


def load(base, seed, seconds, lua, static_path, nginx):
    slug, player = seed["slug"], seed["player_id"]
    targets = [
        ("static", base, static_path),
        ("standings", base, f"/events/{slug}/standings"),
        ("player", base, f"/events/{slug}/find/{player}"),
    ]
    if nginx:
        # The reference: a static server serving the same stylesheet, gzip'd the same way.
        targets.append(("nginx static", nginx, static_path))
    runs = []
    for name, origin, path in targets:
        # A short warm-up, so caches and connection pools are as they are in a hall.
        wrk(origin + path, 10, 1, lua)
        for connections in (50, 200):
            run = wrk(origin + path, connections, seconds, lua)
            run.update({"target": name, "path": path})
            runs.append(run)
    static = {r["connections"]: r["rps"] for r in runs if r["target"] == "static"}
    for r in runs:
        base_rps = static.get(r["connections"]) or 0
        r["ratio_to_static"] = round(r["rps"] / base_rps, 2) if base_rps else None
    # One keep-alive connection, one request at a time: the latency floor.
    single = wrk(base + static_path, 1, max(2, seconds // 2), lua)
    single.update({"target": "static, 1 connection", "path": static_path})
    health = wrk(base + "/healthz", 1, max(2, seconds // 2), lua)
    health.update({"target": "healthz, 1 connection", "path": "/healthz"})
    return runs, [single, health]


def rss_kib(pid):
    """The resident memory of process `pid` in KiB (VmRSS), or None."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


async def open_stream(host, port, path):
    """One live stream (server-sent events), its response headers read: (reader, writer)."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
    if not head.startswith(b"HTTP/1.1 200") or b"text/event-stream" not in head.lower():
        writer.close()
        raise RuntimeError(head.split(b"\r\n", 1)[0].decode("latin-1"))
    return reader, writer


async def heard(reader, wanted, limit):
    try:
        await asyncio.wait_for(reader.readuntil(wanted), limit)
        return True
    except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        return False


async def streams_phase(base, seed, count, seconds, lua, pid, notify):
    """Opens `count` live streams against one instance and, while they are open, measures the
    standings page (wrk, 200 clients) and the server's memory; then sends the event's news once
    and counts the streams that hear it. Bounded: every wait has a time limit."""
    url = urllib.parse.urlparse(base)
    host, port = url.hostname, url.port
    path = f"/events/{seed['slug']}/live"
    before = rss_kib(pid)
    streams, failures = [], 0
    for start in range(0, count, 250):
        batch = await asyncio.gather(
            *(open_stream(host, port, path) for _ in range(start, min(count, start + 250))),
            return_exceptions=True,
        )
        for result in batch:
            if isinstance(result, BaseException):
                failures += 1
            else:
                streams.append(result)
    await asyncio.sleep(1)
    with_streams = rss_kib(pid)
    # The standings page, as 200 phones ask for it while every stream stays open.
    proc = await asyncio.create_subprocess_exec(
        "wrk", "-t2", "-c200", f"-d{seconds}s", "--timeout", "5s", "-H", "Accept-Encoding: gzip",
        "-s", lua, base + f"/events/{seed['slug']}/standings",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(proc.communicate(), seconds + 60)
    line = next((l for l in out.decode().splitlines() if l.startswith("RESULT ")), None)
    standings = None
    if line:
        result = json.loads(line[len("RESULT "):])
        secs = result["duration_us"] / 1e6
        standings = {
            "connections": 200,
            "rps": round(result["requests"] / secs, 1) if secs else 0.0,
            "p50_ms": result["p50_us"] / 1000,
            "p99_ms": result["p99_us"] / 1000,
            "errors": sum(result["errors"].values()),
        }
    peak = rss_kib(pid)
    # The news, once: every open stream must hear it.
    live = 0
    if notify and streams:
        subprocess.run(notify, check=True, capture_output=True, timeout=30)
        results = await asyncio.gather(*(heard(r, b"event: standings", 20) for r, _ in streams))
        live = sum(results)
    for _, writer in streams:
        writer.close()
    await asyncio.sleep(1)
    return {
        "asked": count,
        "opened": len(streams),
        "failed": failures,
        "heard_news": live,
        "rss_before_kib": before,
        "rss_open_kib": with_streams,
        "rss_peak_kib": max(x for x in (with_streams, peak) if x is not None) if with_streams else peak,
        "standings_meanwhile": standings,
    }


def criterion(path):
    """Lines of criterion's `--output-format bencher`: name -> ns per iteration."""
    found = {}
    if not path or not os.path.exists(path):
        return found
    pattern = re.compile(r"^test (.+?) \.\.\. bench:\s+([\d,]+) ns/iter")
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = pattern.match(line.strip())
            if m:
                found[m.group(1)] = int(m.group(2).replace(",", ""))
    return found


def pick(benches, *needles):
    for name, ns in benches.items():
        if all(n in name for n in needles):
            return name, ns
    return None, None


def human_ns(ns):
    if ns is None:
        return "—"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns} ns"


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo", encoding="utf-8") as f:
            kb = int(f.readline().split()[1])
            mem = f"{kb / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "kernel": platform.release()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--seed", required=True, help="the JSON mentat seed printed")
    ap.add_argument("--criterion", help="criterion's output (bencher format)")
    ap.add_argument("--seconds", type=int, default=5)
    ap.add_argument("--out", required=True)
    ap.add_argument("--commit", default="")
    ap.add_argument("--static-path", default="/pkg/mentat.css", help="the stylesheet's address")
    ap.add_argument("--nginx", help="nginx serving the same stylesheet, e.g. http://127.0.0.1:8081")
    ap.add_argument("--pid", type=int, help="the server's process, for its memory")
    ap.add_argument("--streams", type=int, default=0, help="live streams to hold open")
    ap.add_argument("--notify", help="a command that sends the seeded event's news once")
    args = ap.parse_args()
    with open(args.seed, encoding="utf-8") as f:
        seed = json.load(f)
    lua = os.path.join(os.path.dirname(args.out), "wrk-report.lua")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(lua, "w", encoding="utf-8") as f:
        f.write(WRK_REPORT)

    benches = criterion(args.criterion)
    page = weights(args.url, seed)
    runs, floor = load(args.url, seed, args.seconds, lua, args.static_path, args.nginx)
    streams = None
    if args.streams:
        notify = ["sh", "-c", args.notify] if args.notify else None
        streams = asyncio.run(streams_phase(args.url, seed, args.streams, args.seconds, lua, args.pid, notify))

    standings_name, standings_ns = pick(benches, "standings 1000 players")
    draw_name, draw_ns = pick(benches, "draw 300 players", "typed")
    parse_name, parse_ns = pick(benches, "parse ten-turn")
    replay_name, replay_ns = pick(benches, "replay ten-turn")
    full_parse_name, full_parse_ns = pick(benches, "parse full-format")
    full_replay_name, full_replay_ns = pick(benches, "replay full-format")
    report = {
        "when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": args.commit,
        "machine": machine(),
        "event": {"players": seed["players"], "rounds": seed["rounds"]},
        "criterion_ns": benches,
        "criterion": {
            "standings_1000x6_ns": standings_ns,
            "draw_300_ns": draw_ns,
            "engine_parse_ns": parse_ns,
            "engine_replay_ns": replay_ns,
            "engine_replay_to_parse": round(replay_ns / parse_ns, 2) if parse_ns and replay_ns else None,
            "engine_full_parse_ns": full_parse_ns,
            "engine_full_replay_ns": full_replay_ns,
            "engine_full_replay_to_parse": round(full_replay_ns / full_parse_ns, 2)
            if full_parse_ns and full_replay_ns
            else None,
        },
        "load": runs,
        "latency_floor": floor,
        "streams": streams,
        "weights": page,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(report, f, indent=2)
        f.write("\n")

    m = report["machine"]
    print(f"\nMentat benchmark, {report['when']} {args.commit}")
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['memory']}; event {seed['players']} players x {seed['rounds']} rounds")
    print()
    print(f"{'what':<34} {'req/s':>9} {'p50':>9} {'p99':>9} {'errors':>7} {'x static':>9}")
    for r in floor:
        print(f"{r['target']:<34} {r['rps']:>9.0f} {r['p50_ms']:>7.2f}ms {r['p99_ms']:>7.2f}ms {r['errors']:>7} {'':>9}")
    for r in runs:
        label = f"{r['target']} ({r['connections']} clients)"
        ratio = "" if r["ratio_to_static"] is None else f"{r['ratio_to_static']:.2f}"
        print(f"{label:<34} {r['rps']:>9.0f} {r['p50_ms']:>7.2f}ms {r['p99_ms']:>7.2f}ms {r['errors']:>7} {ratio:>9}")
    by = {(r["target"], r["connections"]): r for r in runs}
    for clients in (50, 200):
        static, nginx, standings = by.get(("static", clients)), by.get(("nginx static", clients)), by.get(("standings", clients))
        if static and nginx and nginx["rps"]:
            line = f"static / nginx at {clients} clients: {static['rps'] / nginx['rps']:.2f}"
            if standings and standings["rps"]:
                line += f"; static / standings: {static['rps'] / standings['rps']:.2f}"
            print(line)
    if streams:
        mib = lambda k: "—" if k is None else f"{k / 1024:.0f} MiB"
        print(f"\n{streams['opened']} of {streams['asked']} live streams open ({streams['failed']} refused), "
              f"{streams['heard_news']} heard the news")
        print(f"server memory: {mib(streams['rss_before_kib'])} before, {mib(streams['rss_open_kib'])} with them open, "
              f"{mib(streams['rss_peak_kib'])} at most")
        m = streams["standings_meanwhile"]
        if m:
            print(f"standings meanwhile (200 clients): {m['rps']:.0f} req/s, p50 {m['p50_ms']:.2f}ms, "
                  f"p99 {m['p99_ms']:.2f}ms, {m['errors']} errors")
    print()
    c = report["criterion"]
    print(f"{'criterion':<34} {'time':>12}")
    print(f"{'standings 1000 x 6':<34} {human_ns(c['standings_1000x6_ns']):>12}")
    print(f"{'draw 300 players':<34} {human_ns(c['draw_300_ns']):>12}")
    print(f"{'engine parse (10 turns)':<34} {human_ns(c['engine_parse_ns']):>12}")
    print(f"{'engine replay (10 turns)':<34} {human_ns(c['engine_replay_ns']):>12}")
    ratio = c["engine_replay_to_parse"]
    print(f"{'replay / parse':<34} {('—' if ratio is None else f'{ratio:.2f}'):>12}")
    print(f"{'engine parse (full, IX TL, 10)':<34} {human_ns(c['engine_full_parse_ns']):>12}")
    print(f"{'engine replay (full, IX TL, 10)':<34} {human_ns(c['engine_full_replay_ns']):>12}")
    ratio = c["engine_full_replay_to_parse"]
    print(f"{'replay / parse (full)':<34} {('—' if ratio is None else f'{ratio:.2f}'):>12}")
    print()
    print(f"{'page weight':<34} {'raw':>10} {'gzip':>10}")
    for name in ("standings", "player", "judge_first_load"):
        w = page[name]
        print(f"{name.replace('_', ' '):<34} {w['raw_bytes'] / 1024:>8.1f}KB {w['gzip_bytes'] / 1024:>8.1f}KB")
    for part, w in page["judge_first_load"]["parts"].items():
        print(f"{'  ' + part:<34} {w['raw_bytes'] / 1024:>8.1f}KB {w['gzip_bytes'] / 1024:>8.1f}KB")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    sys.exit(main())
