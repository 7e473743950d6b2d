#!/usr/bin/env python3
"""Makes the test data of e2e/vocabulary-files.test with TensorFlow 2.21 and
Keras 3: SavedModels whose lookup tables are filled from text files
(tf.lookup.TextFileInitializer; Keras' StringLookup(vocabulary=path)), the
files saved as the SavedModels' assets, and TensorFlow's lookups.

module/ (tf.saved_model.save of a tf.Module) has six tables:
  words:   each line of words.txt to its number (a CRLF line, a line with
           a space, UTF-8, no newline at the end), default -1;
  counts:  pairs.tsv's column 0 to column 1 as int64 (spaces around a
           number, a sign);
  scales:  column 0 to column 2 as float;
  names:   line number + 10 (value_index_offset) to column 0;
  first2:  words.txt's first 2 lines only (vocab_size=2);
  ids:     ids.txt's lines as int64 keys to their numbers.
keras/ (model.export()) is a StringLookup over words.txt.
tf1.pbtxt is a TF1 graph of the words table, built in graph mode: a Const
names "words.txt", which TensorFlow reads from the working directory (as
tfc does when compiling).
(It rewrites every file but this one.)

    /path/to/venv/bin/python test/e2e/Inputs/vocabulary-files/make.py
"""

import os
import shutil
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = {
    "words.txt": "the\ncat\r\nsat\nh\u00e9llo\nthe dog\nlast",
    "pairs.tsv": "the\t3\t0.5\ncat\t-7\t1e3\n dog \t +12 \t-2.25\n",
    "ids.txt": "10\n-3\n7\n",
}
WORDS = np.array([b"the", b"cat", b"sat", "h\u00e9llo".encode(), b"the dog", b"last",
                  b"dog", b"", b" dog ", b"cat\r"])
NUMBERS = np.array([10, -3, 7, 0, 1, 2, 11, 12, 13, 1 << 40], np.int64)


class Tables(tf.Module):
    def __init__(self, folder):
        def table(name, key_dtype, key_index, value_dtype, value_index, default, **kw):
            return tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
                os.path.join(folder, name), key_dtype, key_index, value_dtype,
                value_index, **kw), default)
        whole, number = tf.lookup.TextFileIndex.WHOLE_LINE, tf.lookup.TextFileIndex.LINE_NUMBER
        self.words = table("words.txt", tf.string, whole, tf.int64, number, -1)
        self.counts = table("pairs.tsv", tf.string, 0, tf.int64, 1, -1)
        self.scales = table("pairs.tsv", tf.string, 0, tf.float32, 2, np.float32(0))
        self.names = table("pairs.tsv", tf.int64, number, tf.string, 0, "?",
                           value_index_offset=10)
        self.first2 = table("words.txt", tf.string, whole, tf.int64, number, -1,
                            vocab_size=2)
        self.ids = table("ids.txt", tf.int64, whole, tf.int64, number, -1)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string),
                                  tf.TensorSpec([None], tf.int64)])
    def lookup(self, words, numbers):
        return {"words": self.words.lookup(words), "counts": self.counts.lookup(words),
                "scales": self.scales.lookup(words), "names": self.names.lookup(numbers),
                "first2": self.first2.lookup(words), "ids": self.ids.lookup(numbers)}


def main():
    with tempfile.TemporaryDirectory() as folder:
        for name, text in FILES.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        tables = Tables(folder)
        path = os.path.join(HERE, "module")
        shutil.rmtree(path, ignore_errors=True)
        tf.saved_model.save(tables, path, signatures=tables.lookup)

        text = keras.Input((), dtype="string", name="text")
        lookup = keras.layers.StringLookup(vocabulary=os.path.join(folder, "words.txt"))
        model = keras.Model(text, lookup(text))
        path = os.path.join(HERE, "keras")
        shutil.rmtree(path, ignore_errors=True)
        model.export(path, verbose=False)

    # TensorFlow's answers, from the SavedModels as saved (their assets).
    np.save(os.path.join(HERE, "queries.npy"), WORDS)
    np.save(os.path.join(HERE, "query-ids.npy"), NUMBERS)
    serve = tf.saved_model.load(os.path.join(HERE, "module")).signatures["serving_default"]
    out = serve(words=tf.constant(WORDS), numbers=tf.constant(NUMBERS))
    for key, value in out.items():
        value = value.numpy()
        if value.dtype == object:
            value = value.astype(bytes)
        np.save(os.path.join(HERE, "%s.npy" % key), value)
    serve = tf.saved_model.load(os.path.join(HERE, "keras")).signatures["serving_default"]
    (value,) = serve(text=tf.constant(WORDS)).values()
    np.save(os.path.join(HERE, "keras-ids.npy"), value.numpy())

    graph = tf.Graph()
    with graph.as_default():
        words = tf.compat.v1.placeholder(tf.string, [None], name="words")
        table = tf.lookup.StaticHashTable(
            tf.lookup.TextFileInitializer(
                "words.txt", tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
                tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), default_value=-1)
        tf.identity(table.lookup(words), name="ids")
        init = tf.compat.v1.tables_initializer(name="init_all_tables")
    tf.io.write_graph(graph.as_graph_def(), HERE, "tf1.pbtxt")
    cwd = os.getcwd()
    os.chdir(os.path.join(HERE, "module", "assets"))
    try:
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(init)
            ids = session.run("ids:0", {"words:0": WORDS})
    finally:
        os.chdir(cwd)
    np.save(os.path.join(HERE, "tf1-ids.npy"), ids)


if __name__ == "__main__":
    main()
