#!/usr/bin/env python3
"""Draws one step of a program's --trace as an SVG timeline, laid out as
Perfetto lays a Chrome trace out: a track per thread (grouped by process),
each slice a box at its time and nesting depth, coloured by its op, and an
arrow per flow (a _Send to its _Recv). For documentation and for machines
without a browser; Perfetto and chrome://tracing open the trace itself.

usage: draw_trace.py TRACE.json -o OUT.svg [--step N] [--width PX]

--step N draws the slice "step N" of the driver's thread and what ran in
its time (default: the last step).

Standard library only.
"""
import argparse
import colorsys
import hashlib
import json
import sys
from xml.sax.saxutils import escape

ROW = 18          # height of one nesting level
TRACK_GAP = 10    # space between tracks
LABEL = 260       # width of the track names' column
AXIS = 28         # height of the time axis


def colour(name):
    """A stable light colour per op type."""
    hue = int(hashlib.md5(name.encode()).hexdigest()[:4], 16) / 65535.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.78, 0.55)
    return "#%02x%02x%02x" % (int(r * 255), int(g * 255), int(b * 255))


def holder(where, event):
    """The top of the innermost slice of the event's thread that holds its
    time (a flow's ends bind to the slices they are in), or None."""
    held = [(depth, top) for begin, end, depth, top in
            where.get((event["pid"], event["tid"]), [])
            if begin <= event["ts"] <= end]
    return max(held)[1] if held else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("-o", dest="out", required=True)
    ap.add_argument("--step", type=int, default=None)
    ap.add_argument("--width", type=int, default=1200)
    args = ap.parse_args()

    try:
        with open(args.trace) as f:
            events = json.load(f)["traceEvents"]
    except (OSError, ValueError, KeyError) as e:
        sys.exit("draw_trace.py: %s: not a Chrome trace (%s)" % (args.trace, e))
    names, processes = {}, {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "process_name":
            processes[e["pid"]] = e["args"]["name"]
    steps = {e["name"]: e for e in events
             if e.get("ph") == "X" and e.get("name", "").startswith("step ")}
    if not steps:
        sys.exit("draw_trace.py: %s has no step slices" % args.trace)
    if args.step is None:
        step = max(steps.values(), key=lambda e: e["ts"])
    elif "step %d" % args.step in steps:
        step = steps["step %d" % args.step]
    else:
        sys.exit("draw_trace.py: %s has no slice 'step %d'" % (args.trace, args.step))
    begin, end = step["ts"], step["ts"] + step["dur"]

    # The slices within the step, per thread, with their nesting depth.
    slices = {}
    for e in events:
        if e.get("ph") == "X" and e["ts"] >= begin and e["ts"] + e["dur"] <= end:
            slices.setdefault((e["pid"], e["tid"]), []).append(e)
    tracks, y = [], AXIS
    for key in sorted(slices):
        open_ends, depth_of = [], {}
        for e in sorted(slices[key], key=lambda e: (e["ts"], -e["dur"])):
            while open_ends and open_ends[-1] <= e["ts"]:
                open_ends.pop()
            depth_of[id(e)] = len(open_ends)
            open_ends.append(e["ts"] + e["dur"])
        depth = 1 + max(depth_of.values())
        tracks.append((key, y, depth_of))
        y += depth * ROW + TRACK_GAP
    scale = (args.width - LABEL - 10) / max(end - begin, 1e-9)
    x_of = lambda ts: LABEL + (ts - begin) * scale  # noqa: E731

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="Helvetica, Arial, sans-serif" font-size="10">'
           % (args.width, y + 4),
           '<rect width="100%" height="100%" fill="white"/>',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" '
           'markerWidth="6" markerHeight="6" orient="auto"><path '
           'd="M0,0 L10,5 L0,10 z" fill="#d93025"/></marker></defs>']
    # The time axis: about ten ticks at a round step.
    span = end - begin
    tick = 10 ** len(str(int(span / 10))) / 10 if span >= 10 else 1
    for k in (1, 2, 5, 10):
        if span / (tick * k) <= 10:
            tick *= k
            break
    t = 0.0
    while t <= span:
        x = x_of(begin + t)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#dadce0"/>'
                   % (x, AXIS - 6, x, y))
        out.append('<text x="%.1f" y="%d" fill="#5f6368">%g us</text>'
                   % (x + 2, AXIS - 10, round(t, 3)))
        t += tick
    where = {}
    for (pid, tid), top, depth_of in tracks:
        name = names.get((pid, tid), "thread %d" % tid)
        process = processes.get(pid)
        label = (process + ": " if process and len(processes) > 1 else "") + name
        out.append('<text x="4" y="%d" font-weight="bold">%s</text>'
                   % (top + 12, escape(label[-46:])))
        for e in slices[(pid, tid)]:
            x, w = x_of(e["ts"]), max(e["dur"] * scale, 0.5)
            yy = top + depth_of[id(e)] * ROW
            where.setdefault((pid, tid), []).append(
                (e["ts"], e["ts"] + e["dur"], depth_of[id(e)], yy))
            op = e.get("cat", "")
            out.append('<g><title>%s</title><rect x="%.1f" y="%d" width="%.1f" '
                       'height="%d" fill="%s" stroke="#80868b" stroke-width="0.4"/>'
                       % (escape("%s (%s) %.2f us" % (e["name"], op, e["dur"])),
                          x, yy, w, ROW - 2, colour(op or e["name"])))
            if w > 40:
                text = e["name"].rsplit("/", 1)[-1]
                out.append('<text x="%.1f" y="%d">%s</text>'
                           % (x + 2, yy + 12, escape(text[:int(w / 6)])))
            out.append("</g>")
    # Flows: from the slice that holds each "s" to the one bound to its "f".
    starts = {}
    for e in events:
        if e.get("ph") == "s" and begin <= e["ts"] <= end:
            starts[e["id"]] = e
    for e in events:
        if e.get("ph") != "f" or e.get("id") not in starts or not begin <= e["ts"] <= end:
            continue
        s = starts[e["id"]]
        a, b = holder(where, s), holder(where, e)
        if a is not None and b is not None:
            x1, y1 = x_of(s["ts"]), a + ROW / 2
            x2, y2 = x_of(e["ts"]), b + ROW / 2
            out.append('<path d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" '
                       'stroke="#d93025" stroke-width="1" marker-end="url(#arrow)"/>'
                       % (x1, y1, (x1 + x2) / 2, y1, (x1 + x2) / 2, y2, x2, y2))
    out.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
