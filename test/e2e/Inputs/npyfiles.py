"""Small .npy helpers for the end-to-end test scripts (standard library
only: CI runs them without NumPy), and npy-compare's verdict."""

import ast
import struct
import subprocess


def _header(data, path):
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    header_length_format = "<H" if major == 1 else "<I"
    offset = 8 + struct.calcsize(header_length_format)
    (header_length,) = struct.unpack_from(header_length_format, data, 8)
    header = ast.literal_eval(data[offset:offset + header_length].decode("latin1"))
    return header, data[offset + header_length:]


def read_float32_vector(path):
    """The values of a 1-D little-endian float32 .npy file."""
    with open(path, "rb") as f:
        header, values = _header(f.read(), path)
    assert header["descr"] == "<f4" and len(header["shape"]) == 1, (path, header)
    return struct.unpack("<%df" % header["shape"][0], values)


def write_float32_scalar(path, value):
    """A 0-d float32 .npy file (format 1.0, header padded to 64 bytes)."""
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (), }"
    header += " " * (64 - 10 - len(header) - 1) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1") + struct.pack("<f", value))


def compare(got, want, rtol, atol):
    result = subprocess.run(["npy-compare", got, want, "--rtol", rtol, "--atol", atol],
                            capture_output=True, text=True)
    return result.returncode, result.stdout.strip()


def write_bytes_scalar(path, value):
    """A 0-d .npy file of NumPy's bytes dtype ('S'), as np.save(path,
    np.array(value)) writes for a bytes value."""
    header = "{'descr': '|S%d', 'fortran_order': False, 'shape': (), }" % len(value)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1") + value)


def read_bytes_scalar(path):
    """The value of a 0-d 'S' .npy file (NumPy drops the NUL padding)."""
    with open(path, "rb") as f:
        header, value = _header(f.read(), path)
    assert header["descr"].startswith("|S") and header["shape"] == (), (path, header)
    return value.rstrip(b"\0")
