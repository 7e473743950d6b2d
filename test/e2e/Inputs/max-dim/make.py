#!/usr/bin/env python3
"""Makes the test data of e2e/max-dim.test with TensorFlow 2.21 and Keras 3
(fixed seeds): a small text encoder whose token ids are [batch, length],
both unknown (Input((None,))), exported as Keras exports it,
model.export(): token and position embeddings (the positions sliced to the
length), self-attention, a residual LayerNorm, a GELU Dense, and two
outputs, the sequence and its average over the positions. TensorFlow's
outputs for batches of 1 and 3 sequences of 1, 5 and 12 tokens. And in
bert/, a BERT encoder from keras-hub (pip install keras-hub), random
weights, exported as it comes: three feeds of [batch, length] (token ids,
segment ids, a padding mask), outputs for two sequences of 3 and of 7
tokens, the second one's last two padding. In causal/, a decoder block:
causal self-attention (its mask a band of the positions), a residual
LayerNorm and a Dense, for two sequences of 1 and of 6 tokens. In conv/,
a text CNN: Conv1D with same, causal (a residual) and valid padding (one
position fewer), the valid one's output and its maximum over positions,
for sequences of 1 (no position left), 2 and 7 tokens. In rnn/, recurrent
layers: a Bidirectional LSTM's sequence and a Bidirectional GRU's last
states over it, for sequences of 1 and 7 tokens. In fourier/, discrete
Fourier transforms over the positions (FNet mixes tokens so): FFT2D,
IFFT2D and a 1-D FFT with the positions last, for sequences of 1, 5 and
16 (the bound) positions. In deberta/, a DeBERTaV3 encoder from keras-hub
(relative position buckets, gathered with batch_dims), two feeds, for
sequences of 3 and 12 tokens.
(It rewrites every file but this one and encode.c.)

    /path/to/venv/bin/python test/e2e/Inputs/max-dim/make.py
"""

import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
VOCABULARY, WIDTH, MAX_LENGTH = 50, 16, 32


class PositionEmbedding(keras.layers.Layer):
    """A learned vector per position, as many as the sequence has."""

    def build(self, shape):
        self.table = self.add_weight(shape=(MAX_LENGTH, WIDTH),
                                     initializer="random_normal")

    def call(self, x):
        length = keras.ops.shape(x)[1]
        return x + self.table[:length]


def main():
    keras.utils.set_random_seed(20261126)
    L = keras.layers
    ids = keras.Input((None,), dtype="int32", name="ids")
    h = L.Embedding(VOCABULARY, WIDTH)(ids)
    h = PositionEmbedding()(h)
    a = L.MultiHeadAttention(num_heads=2, key_dim=8)(h, h)
    h = L.LayerNormalization()(h + a)
    h = L.Dense(8, activation="gelu")(h)
    pooled = L.GlobalAveragePooling1D()(h)
    model = keras.Model(ids, [h, pooled], name="encoder")

    path = os.path.join(HERE, "saved_model")
    shutil.rmtree(path, ignore_errors=True)
    model.export(path, verbose=False)
    serve = tf.saved_model.load(path).signatures["serving_default"]
    rng = np.random.default_rng(20261126)
    for rows in (1, 3):
        for length in (1, 5, 12):
            x = rng.integers(0, VOCABULARY, (rows, length)).astype(np.int32)
            out = serve(ids=tf.constant(x))
            name = "%dx%d" % (rows, length)
            np.save(os.path.join(HERE, "ids%s.npy" % name), x)
            np.save(os.path.join(HERE, "sequence%s.npy" % name),
                    out["output_0"].numpy())
            np.save(os.path.join(HERE, "pooled%s.npy" % name),
                    out["output_1"].numpy())
    np.save(os.path.join(HERE, "too-long.npy"),
            np.zeros((1, 17), np.int32))
    bert(rng)
    causal(rng)
    convolutions(rng)
    recurrent(rng)
    fourier(rng)
    deberta(rng)


def deberta(rng):
    import keras_hub
    keras.utils.set_random_seed(20261126)
    backbone = keras_hub.models.DebertaV3Backbone(
        vocabulary_size=VOCABULARY, num_layers=1, num_heads=2, hidden_dim=16,
        intermediate_dim=32, max_sequence_length=MAX_LENGTH, bucket_size=8)
    here, serve = export(backbone, "deberta")
    for length in (3, 12):
        feeds = {"token_ids": rng.integers(1, VOCABULARY, (2, length)),
                 "padding_mask": np.ones((2, length))}
        feeds["padding_mask"][1, length - 2:] = 0
        feeds = {k: v.astype(np.int32) for k, v in feeds.items()}
        out = serve(**{k: tf.constant(v) for k, v in feeds.items()})
        feeds["sequence"] = list(out.values())[0].numpy()
        for name, value in feeds.items():
            np.save(os.path.join(here, "%s%d.npy" % (name, length)), value)


def fourier(rng):
    class Transforms(tf.Module):
        @tf.function(input_signature=[
            tf.TensorSpec([None, None, 4], tf.float32, name="x")])
        def serve(self, x):
            zero = tf.zeros_like(x)
            positions_last = tf.transpose(x, [0, 2, 1])
            return {
                "mixed": tf.math.real(tf.signal.fft2d(tf.complex(x, zero))),
                "inverse": tf.math.imag(tf.signal.ifft2d(tf.complex(x, x * x))),
                "lines": tf.math.real(tf.signal.fft(
                    tf.complex(positions_last, positions_last + 1.0))),
            }

    here = os.path.join(HERE, "fourier")
    shutil.rmtree(here, ignore_errors=True)
    os.makedirs(here)
    module = Transforms()
    path = os.path.join(here, "saved_model")
    tf.saved_model.save(module, path,
                        signatures={"serving_default": module.serve})
    serve = tf.saved_model.load(path).signatures["serving_default"]
    for length in (1, 5, 16):
        x = rng.standard_normal((2, length, 4)).astype(np.float32)
        out = serve(x=tf.constant(x))
        np.save(os.path.join(here, "x%d.npy" % length), x)
        for key in ("mixed", "inverse", "lines"):
            np.save(os.path.join(here, "%s%d.npy" % (key, length)),
                    out[key].numpy())


def recurrent(rng):
    keras.utils.set_random_seed(20261126)
    L = keras.layers
    ids = keras.Input((None,), dtype="int32", name="ids")
    h = L.Embedding(VOCABULARY, 8)(ids)
    sequence = L.Bidirectional(L.LSTM(6, return_sequences=True))(h)
    last = L.Bidirectional(L.GRU(5))(sequence)
    here, serve = export(keras.Model(ids, [sequence, last], name="rnn"), "rnn")
    for length in (1, 7):
        x = rng.integers(0, VOCABULARY, (2, length)).astype(np.int32)
        out = serve(ids=tf.constant(x))
        np.save(os.path.join(here, "ids%d.npy" % length), x)
        np.save(os.path.join(here, "sequence%d.npy" % length),
                out["output_0"].numpy())
        np.save(os.path.join(here, "last%d.npy" % length),
                out["output_1"].numpy())


def export(model, directory):
    """Exports `model` into a fresh `directory` of this one; its folder and
    serving signature."""
    here = os.path.join(HERE, directory)
    shutil.rmtree(here, ignore_errors=True)
    os.makedirs(here)
    path = os.path.join(here, "saved_model")
    model.export(path, verbose=False)
    return here, tf.saved_model.load(path).signatures["serving_default"]


def convolutions(rng):
    keras.utils.set_random_seed(20261126)
    L = keras.layers
    ids = keras.Input((None,), dtype="int32", name="ids")
    h = L.Embedding(VOCABULARY, 8)(ids)
    h = L.Conv1D(8, 3, padding="same", activation="relu")(h)
    h = h + L.Conv1D(8, 3, padding="causal")(h)
    valid = L.Conv1D(4, 2, padding="valid")(h)
    model = keras.Model(ids, [valid, L.GlobalMaxPooling1D()(valid)],
                        name="cnn")
    here, serve = export(model, "conv")
    for length in (1, 2, 7):
        x = rng.integers(0, VOCABULARY, (2, length)).astype(np.int32)
        out = serve(ids=tf.constant(x))
        np.save(os.path.join(here, "ids%d.npy" % length), x)
        np.save(os.path.join(here, "positions%d.npy" % length),
                out["output_0"].numpy())
        np.save(os.path.join(here, "maximum%d.npy" % length),
                out["output_1"].numpy())


def causal(rng):
    keras.utils.set_random_seed(20261126)
    L = keras.layers
    ids = keras.Input((None,), dtype="int32", name="ids")
    h = L.Embedding(VOCABULARY, WIDTH)(ids)
    a = L.MultiHeadAttention(2, 8)(h, h, use_causal_mask=True)
    h = L.LayerNormalization()(h + a)
    model = keras.Model(ids, L.Dense(5)(h), name="decoder")
    here, serve = export(model, "causal")
    for length in (1, 6):
        x = rng.integers(0, VOCABULARY, (2, length)).astype(np.int32)
        np.save(os.path.join(here, "ids%d.npy" % length), x)
        np.save(os.path.join(here, "logits%d.npy" % length),
                list(serve(ids=tf.constant(x)).values())[0].numpy())


def bert(rng):
    import keras_hub
    keras.utils.set_random_seed(20261126)
    backbone = keras_hub.models.BertBackbone(
        vocabulary_size=VOCABULARY, num_layers=1, num_heads=2, hidden_dim=16,
        intermediate_dim=32, max_sequence_length=MAX_LENGTH)
    here, serve = export(backbone, "bert")
    for length in (3, 7):
        feeds = {"token_ids": rng.integers(1, VOCABULARY, (2, length)),
                 "segment_ids": rng.integers(0, 2, (2, length)),
                 "padding_mask": np.ones((2, length))}
        feeds["padding_mask"][1, length - 2:] = 0
        feeds = {k: v.astype(np.int32) for k, v in feeds.items()}
        out = serve(**{k: tf.constant(v) for k, v in feeds.items()})
        for name, value in list(feeds.items()) + [
                (k, v.numpy()) for k, v in out.items()]:
            np.save(os.path.join(here, "%s%d.npy" % (name, length)), value)


if __name__ == "__main__":
    main()
