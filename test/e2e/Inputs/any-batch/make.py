#!/usr/bin/env python3
"""Makes the test data of e2e/any-batch.test with TensorFlow 2.21 and
Keras 3 (fixed seeds): a small image classifier exported as Keras exports
it, model.export(), whose signature's batch dimension is unknown, and
TensorFlow's outputs for batches of 1, 3 and 6 rows; and a recurrent model
(a Bidirectional LSTM over the sequence, then a GRU) exported the same way,
in rnn/, whose loops carry the rows in TensorLists.
(It rewrites every file but this one and classify.c.)

    /path/to/venv/bin/python test/e2e/Inputs/any-batch/make.py
"""

import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    keras.utils.set_random_seed(20261125)
    L = keras.layers
    inp = keras.Input((6, 6, 3), name="x")
    h = L.Conv2D(4, 3, padding="same")(inp)
    h = L.BatchNormalization()(h)
    h = L.ReLU()(h)
    h = L.MaxPooling2D(2)(h)
    h = L.Flatten()(h)
    h = L.Dense(8, activation="gelu")(h)
    h = L.LayerNormalization()(h)
    out = L.Dense(3)(h)
    model = keras.Model(inp, out, name="classifier")
    # Batch norm statistics other than 0 and 1, so that they count.
    rng = np.random.default_rng(20261125)
    bn = model.layers[2]
    bn.moving_mean.assign(rng.standard_normal(4).astype(np.float32) * 0.1)
    bn.moving_variance.assign(rng.uniform(0.5, 1.5, 4).astype(np.float32))

    path = os.path.join(HERE, "saved_model")
    shutil.rmtree(path, ignore_errors=True)
    model.export(path, verbose=False)
    serve = tf.saved_model.load(path).signatures["serving_default"]
    for rows in (1, 3, 6):
        x = rng.standard_normal((rows, 6, 6, 3)).astype(np.float32)
        y = list(serve(x=tf.constant(x)).values())[0].numpy()
        np.save(os.path.join(HERE, "x%d.npy" % rows), x)
        np.save(os.path.join(HERE, "y%d.npy" % rows), y)
    recurrent(rng)
    # A batch of no rows, which a program refuses.
    np.save(os.path.join(HERE, "empty.npy"), np.zeros((0, 6, 6, 3), np.float32))


def recurrent(rng):
    L = keras.layers
    inp = keras.Input((5, 3), name="seq")
    h = L.Bidirectional(L.LSTM(4, return_sequences=True))(inp)
    out = L.GRU(3)(h)
    model = keras.Model(inp, out, name="recurrent")
    here = os.path.join(HERE, "rnn")
    path = os.path.join(here, "saved_model")
    shutil.rmtree(here, ignore_errors=True)
    os.makedirs(here)
    model.export(path, verbose=False)
    serve = tf.saved_model.load(path).signatures["serving_default"]
    for rows in (1, 3, 6):
        x = rng.standard_normal((rows, 5, 3)).astype(np.float32)
        y = list(serve(seq=tf.constant(x)).values())[0].numpy()
        np.save(os.path.join(here, "x%d.npy" % rows), x)
        np.save(os.path.join(here, "y%d.npy" % rows), y)


if __name__ == "__main__":
    main()
