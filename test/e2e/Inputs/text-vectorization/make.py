#!/usr/bin/env python3
"""Makes the test data of e2e/text-vectorization.test with TensorFlow 2.21
and Keras 3 (fixed seeds): a text classifier that takes raw strings, as
Keras tutorials build it and model.export() writes it. Its
TextVectorization (lower case and punctuation stripped, split at white
space, a vocabulary adapted from a small corpus, 8 token ids per text) is
StringLower, StaticRegexReplace, StringSplitV2, a lookup in a static hash
table and RaggedTensorToTensor; then an Embedding, an average and a Dense
layer of 3 logits. TensorFlow's logits for a batch of 1 text and one of 4
(long, empty, punctuation only, words outside the vocabulary). In
unpadded/, the same vectorizer without output_sequence_length, whose
width only the data decides (refused).
(It rewrites every file but this one.)

    /path/to/venv/bin/python test/e2e/Inputs/text-vectorization/make.py
"""

import os
import shutil

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = ["The cat sat on the mat.", "A dog ate my homework!",
          "The dog sat; the cat ran.", "Cats and dogs, dogs and cats."]


def classifier(length):
    keras.utils.set_random_seed(20261126)
    vectorize = keras.layers.TextVectorization(
        max_tokens=16, output_sequence_length=length)
    vectorize.adapt(CORPUS)
    text = keras.Input((), dtype="string", name="text")
    h = keras.layers.Embedding(16, 8)(vectorize(text))
    h = keras.layers.GlobalAveragePooling1D()(h)
    return keras.Model(text, keras.layers.Dense(3)(h))


def export(model, directory):
    path = os.path.join(HERE, directory)
    shutil.rmtree(path, ignore_errors=True)
    model.export(path, verbose=False)
    return tf.saved_model.load(path).signatures["serving_default"]


def main():
    serve = export(classifier(8), "saved_model")
    batches = {
        "one": [b"The cat sat on the mat."],
        "four": [b"the DOG ate the cat's homework, and the cat sat on the dog's mat",
                 b"", b"?!, ...", b"zebra giraffe cat"],
    }
    for name, texts in batches.items():
        texts = np.array(texts)
        np.save(os.path.join(HERE, "%s.npy" % name), texts)
        logits = serve(text=tf.constant(texts))["output_0"].numpy()
        np.save(os.path.join(HERE, "logits-%s.npy" % name), logits)
    export(classifier(None), "unpadded")


if __name__ == "__main__":
    main()
