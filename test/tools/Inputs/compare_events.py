"""Compares the summaries of a TensorBoard event file tfc wrote with those
TensorFlow wrote for the same steps and values.

usage: compare_events.py EXPECTED_FILE DIR (the one events.out.tfevents.*
file in DIR is tfc's)

Every record's framing and checksums are checked (read_events.py). The
summary events must be as many, at the same steps, with the same tags in
the same order (a step's events, of TF2's writers, in any order). A value
whose bytes are TensorFlow's is "exact"; else a simple_value within rtol
1e-5, a histogram with the same bucket limits and counts and min, max,
num, sum and sum of squares within rtol 1e-5, a float32 or float64 tensor
of the same shape and metadata whose elements are within rtol 1e-5 of
each other or of the tensor's largest magnitude (TF2's histogram edges near
zero are differences of computed values), or an image (an Image, or
TF2's image tensor of width, height and PNGs) of the same size and pixels
(decoded from PNGs that may be compressed differently) is "close";
anything else is a MISMATCH. Prints a line per tag for FileCheck.
"""
import collections
import glob
import math
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from read_events import fields, records  # noqa: E402


def summaries(path):
    """[(step, [(tag, value bytes)])] of the file's summary events."""
    result = []
    for ok, record in records(path):
        if not ok:
            sys.exit("%s: a record's checksum is wrong" % path)
        event = {n: v for n, _, v in fields(record)}
        if 5 not in event:
            continue
        values = []
        for n, _, value in fields(event[5]):
            if n == 1:
                tag = [v for m, _, v in fields(value) if m == 1]
                values.append((tag[0].decode() if tag else "", value))
        result.append((event.get(2, 0), values))
    # The events of one step in the order of their tags: TF2's writes of a
    # step run concurrently in TensorFlow, in any order.
    result.sort(key=lambda e: (e[0], [tag for tag, _ in e[1]]))
    return result


def png_pixels(png):
    """(width, height, colour type, rows of samples) of an 8-bit PNG,
    decoded with the standard library (any filters, one or more IDATs)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat = 8, b""
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", data[:10])
            assert depth == 8
        elif kind == b"IDAT":
            idat += data
        at += 12 + length
    channels = {0: 1, 2: 3, 6: 4}[colour]
    raw, stride = zlib.decompress(idat), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else
                                    up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(row))
        previous = row
    return width, height, colour, rows


def same_image(want, have):
    """Image messages with the same height, width, colourspace and pixels
    (their PNGs may be compressed differently)."""
    w = {n: v for n, _, v in fields(want)}
    h = {n: v for n, _, v in fields(have)}
    return all(w.get(f) == h.get(f) for f in (1, 2, 3)) and \
        png_pixels(w[4]) == png_pixels(h[4])


def doubles(data):
    return list(struct.unpack("<%dd" % (len(data) // 8), data))


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-5, abs_tol=1e-12)


def same_within_tolerance(want, have):
    w = {n: v for n, _, v in fields(want)}
    h = {n: v for n, _, v in fields(have)}
    if 2 in w or 2 in h:  # simple_value, a float
        return 2 in w and 2 in h and close(struct.unpack("<f", w[2])[0],
                                           struct.unpack("<f", h[2])[0])
    if 8 in w and 8 in h and b"images" in w.get(9, b""):
        # TF2's image summary: strings width, height, then a PNG per image.
        ws = [v for n, _, v in fields(w[8]) if n == 8]
        hs = [v for n, _, v in fields(h[8]) if n == 8]
        return w.get(9) == h.get(9) and len(ws) == len(hs) and ws[:2] == hs[:2] \
            and all(png_pixels(a) == png_pixels(b) for a, b in zip(ws[2:], hs[2:]))
    if 8 in w and 8 in h:  # tensor: float32 or float64 contents within tolerance
        wt = {n: v for n, _, v in fields(w[8])}
        ht = {n: v for n, _, v in fields(h[8])}
        kind = {1: "f", 2: "d"}.get(wt.get(1))
        if not kind or wt.get(1) != ht.get(1) or wt.get(2) != ht.get(2) or \
                w.get(9) != h.get(9):
            return False
        a, b = wt.get(4, b""), ht.get(4, b"")
        size = struct.calcsize(kind)
        if len(a) != len(b):
            return False
        xs = struct.unpack("<%d%s" % (len(a) // size, kind), a)
        ys = struct.unpack("<%d%s" % (len(b) // size, kind), b)
        # Within rtol of the element or of the tensor's largest magnitude:
        # histogram edges near zero are differences of computed values.
        scale = max([abs(x) for x in xs] + [0.0])
        return all(close(x, y) or abs(x - y) <= 1e-5 * scale for x, y in zip(xs, ys))
    if 4 in w and 4 in h:  # image
        return same_image(w[4], h[4])
    if 5 in w and 5 in h:  # histo
        wh = {n: v for n, _, v in fields(w[5])}
        hh = {n: v for n, _, v in fields(h[5])}
        for field in (6, 7):  # bucket_limit, bucket
            if doubles(wh.get(field, b"")) != doubles(hh.get(field, b"")):
                return False
        return all(close(doubles(wh.get(f, bytes(8)))[0], doubles(hh.get(f, bytes(8)))[0])
                   for f in (1, 2, 3, 4, 5))
    return False


def main():
    expected = summaries(sys.argv[1])
    (path,) = glob.glob(os.path.join(sys.argv[2], "events.out.tfevents.*"))
    actual = summaries(path)
    print("summary events: %d expected, %d written" % (len(expected), len(actual)))
    if len(expected) != len(actual):
        sys.exit(1)
    verdicts = collections.OrderedDict()
    for (want_step, want), (have_step, have) in zip(expected, actual):
        if want_step != have_step:
            sys.exit("step %d written as %d" % (want_step, have_step))
        if [t for t, _ in want] != [t for t, _ in have]:
            sys.exit("step %d: tags %s, expected %s"
                     % (want_step, [t for t, _ in have], [t for t, _ in want]))
        for (tag, w), (_, h) in zip(want, have):
            verdict = "exact" if w == h else (
                "close" if same_within_tolerance(w, h) else "MISMATCH")
            verdicts.setdefault(tag, set()).add(verdict)
    print("steps: %s" % " ".join(str(step) for step, _ in actual))
    for tag, kinds in verdicts.items():
        worst = "MISMATCH" if "MISMATCH" in kinds else (
            "close" if "close" in kinds else "exact")
        print("%s: %s" % (tag, worst))


if __name__ == "__main__":
    main()
