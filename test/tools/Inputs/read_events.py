"""Reads a TensorBoard event file as TensorBoard would, without
TensorFlow: checks every record's framing and masked CRC32C checksums, and
prints each Event's fields; for a graph_def, its node count and the devices
of its nodes. Prints lines for FileCheck.

usage: read_events.py DIR (the one events.out.tfevents.* file in it)
"""
import glob
import os
import struct
import sys


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def fields(message):
    """(field number, wire type, value) of a protocol buffer's fields."""
    at = 0

    def varint():
        nonlocal at
        value, shift = 0, 0
        while True:
            byte = message[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    while at < len(message):
        key = varint()
        number, wire = key >> 3, key & 7
        if wire == 0:
            yield number, wire, varint()
        elif wire == 1:
            yield number, wire, message[at:at + 8]
            at += 8
        elif wire == 2:
            length = varint()
            yield number, wire, message[at:at + length]
            at += length
        elif wire == 5:
            yield number, wire, message[at:at + 4]
            at += 4
        else:
            raise SystemExit("wire type %d" % wire)


def records(path):
    """(checksums right, record) of each TFRecord of the file."""
    data = open(path, "rb").read()
    at = 0
    while at < len(data):
        header = data[at:at + 8]
        (length,) = struct.unpack("<Q", header)
        (length_crc,) = struct.unpack("<I", data[at + 8:at + 12])
        record = data[at + 12:at + 12 + length]
        (record_crc,) = struct.unpack("<I", data[at + 12 + length:at + 16 + length])
        at += 16 + length
        yield masked(header) == length_crc and masked(record) == record_crc, record


def main():
    (path,) = glob.glob(os.path.join(sys.argv[1], "events.out.tfevents.*"))
    for ok, record in records(path):
        checks = "ok" if ok else "BAD CHECKSUM"
        parts = []
        for number, _, value in fields(record):
            if number == 1:
                parts.append("wall_time")
            elif number == 3:
                parts.append("file_version %s" % value.decode())
            elif number == 10:
                writer = [v for n, _, v in fields(value) if n == 1]
                parts.append("writer %s" % writer[0].decode())
            elif number == 4:
                nodes = [dict((n, v) for n, _, v in fields(node))
                         for n, _, node in fields(value) if n == 1]
                devices = sorted({node.get(4, b"").decode() for node in nodes})
                ops = sorted({node[2].decode() for node in nodes})
                parts.append("graph_def of %d nodes on %s" % (len(nodes), ", ".join(devices)))
                parts.append("ops include _Send: %s" % ("_Send" in ops))
            else:
                parts.append("field %d" % number)
        print("record (%s): %s" % (checks, "; ".join(parts)))


if __name__ == "__main__":
    main()
