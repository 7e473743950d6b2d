#!/usr/bin/env python3
"""The broad corpus: real models as TensorFlow 2.21 makes them, which tfc
should compile as they come. Built on demand (nothing here is committed but
this script and the report it writes), with fixed seeds and random weights
(weights=None: nothing is downloaded).

    /path/to/venv/bin/python test/corpus/broad.py [--tfc build/bin/tfc]
        [--work DIR] [--only NAME,...]
        [--family applications,layers,tf1,hub,text]
        [--report docs/ModelCoverage.md]

Each case is a model in up to two forms:
  saved_model  what Keras 3's model.export() writes (its serving_default
               signature, batch dimension unknown), compiled with no flag
               but -o, and run on a batch of 1 and one of 3 rows;
  frozen       its forward function with a batch of 1, variables frozen to
               constants (TF1 graphs: the session's graph, frozen), compiled
               with --feed/--fetch naming its input and output only.
A case passes when either form compiles and its program's output matches
TensorFlow's on the same input: each element within rtol 1e-3 of
TensorFlow's, plus an absolute 1e-4 + 1e-5 of the output's largest
magnitude (random weights make logits in the thousands, whose small ones
carry the large ones' rounding). The applications are built with
classifier_activation=None: logits, so that a softmax of random weights
cannot hide a wrong answer. Prints one line per case and the pass rate;
--report writes the table in Markdown.

The text family is keras-hub's backbones as they export, their token ids
and masks [batch, length] with both unknown: compiled with a --max-dim
bound of 16 on each feed's length (the one flag they need), and run on two
sequences of 3 and of 7 tokens, the second one's last two padding.

The layers family also has Keras' preprocessing layers of raw strings and
ids (TextVectorization, StringLookup, IntegerLookup, Hashing), whose
vocabularies are static hash tables: SavedModel only (a frozen graph cannot
hold a table), run on a batch of 1 and one of 3.

The TF1 cases use tf_keras's cells (pip install tf_keras==2.21.0): Keras 3
has none that tf.compat.v1.nn.dynamic_rnn takes. The hub and text families
need keras-hub (pip install keras-hub); without it, they are left out.

Every tfc compile and run is bounded in time (--timeout).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402

SEED = 20261124
RTOL, ATOL, SCALED_ATOL = 1e-3, 1e-4, 1e-5

# keras.applications: constructor and input side (the smallest each takes
# comfortably; NASNet builds its fixed 224 input with its top).
APPLICATIONS = [
    ("ResNet50", 96), ("ResNet50V2", 96), ("ResNet101", 64), ("ResNet152", 64),
    ("ResNet101V2", 64), ("VGG16", 64), ("VGG19", 64), ("MobileNet", 96),
    ("MobileNetV2", 96), ("MobileNetV3Small", 96), ("MobileNetV3Large", 96),
    ("DenseNet121", 64), ("DenseNet169", 64), ("InceptionV3", 96),
    ("InceptionResNetV2", 96), ("Xception", 96), ("EfficientNetB0", 96),
    ("EfficientNetB1", 96), ("EfficientNetV2B0", 96), ("EfficientNetV2S", 96),
    ("ConvNeXtTiny", 64), ("NASNetMobile", 224),
]


def layer_cases():
    """One small Keras model per layer type that lowers to TensorFlow ops:
    name -> (build, input shape without the batch, dtype)."""
    L = keras.layers

    def seq(*layers):
        return lambda shape: keras.Sequential([keras.Input(shape)] + list(layers))

    return {
        "Dense": (seq(L.Dense(8, activation="tanh")), (12,), "float32"),
        "Conv1D": (seq(L.Conv1D(6, 3, padding="same")), (10, 4), "float32"),
        "Conv1D_causal_dilated": (seq(L.Conv1D(6, 3, padding="causal",
                                               dilation_rate=2)), (12, 4), "float32"),
        "Conv2D": (seq(L.Conv2D(6, 3, strides=2)), (9, 9, 3), "float32"),
        "Conv2D_grouped": (seq(L.Conv2D(8, 3, groups=2)), (8, 8, 4), "float32"),
        "Conv3D": (seq(L.Conv3D(4, 2)), (5, 5, 5, 2), "float32"),
        "Conv2DTranspose": (seq(L.Conv2DTranspose(4, 3, strides=2)), (5, 5, 3), "float32"),
        "DepthwiseConv2D": (seq(L.DepthwiseConv2D(3)), (8, 8, 3), "float32"),
        "SeparableConv2D": (seq(L.SeparableConv2D(5, 3)), (8, 8, 3), "float32"),
        "MaxPooling2D": (seq(L.MaxPooling2D()), (8, 8, 3), "float32"),
        "AveragePooling1D": (seq(L.AveragePooling1D(2)), (8, 3), "float32"),
        "MaxPooling3D": (seq(L.MaxPooling3D()), (4, 4, 4, 2), "float32"),
        "GlobalAveragePooling2D": (seq(L.GlobalAveragePooling2D()), (6, 6, 3), "float32"),
        "UpSampling2D": (seq(L.UpSampling2D()), (4, 4, 3), "float32"),
        "UpSampling2D_bilinear": (seq(L.UpSampling2D(interpolation="bilinear")),
                                  (4, 4, 3), "float32"),
        "ZeroPadding2D": (seq(L.ZeroPadding2D(2)), (4, 4, 3), "float32"),
        "Cropping2D": (seq(L.Cropping2D(1)), (6, 6, 3), "float32"),
        "BatchNormalization": (seq(L.BatchNormalization()), (6, 5), "float32"),
        "LayerNormalization": (seq(L.LayerNormalization()), (6, 5), "float32"),
        "GroupNormalization": (seq(L.GroupNormalization(2)), (4, 4, 4), "float32"),
        "Embedding": (seq(L.Embedding(20, 6)), (7,), "int32"),
        "SimpleRNN": (seq(L.SimpleRNN(5)), (6, 3), "float32"),
        "LSTM": (seq(L.LSTM(5, return_sequences=True)), (6, 3), "float32"),
        "GRU": (seq(L.GRU(5)), (6, 3), "float32"),
        "Bidirectional_LSTM": (seq(L.Bidirectional(L.LSTM(4))), (6, 3), "float32"),
        "MultiHeadAttention": (
            lambda shape: (lambda x: keras.Model(
                x, L.MultiHeadAttention(2, 4)(x, x)))(keras.Input(shape)),
            (5, 8), "float32"),
        "MultiHeadAttention_causal": (
            lambda shape: (lambda x: keras.Model(
                x, L.MultiHeadAttention(2, 4)(x, x, use_causal_mask=True)))(
                    keras.Input(shape)),
            (5, 8), "float32"),
        "Flatten_Reshape_Permute": (seq(L.Flatten(), L.Reshape((4, 6)),
                                        L.Permute((2, 1))), (3, 8), "float32"),
        "RepeatVector": (seq(L.RepeatVector(3)), (5,), "float32"),
        "Activations": (seq(L.Dense(6, activation="gelu"), L.Activation("swish"),
                            L.Activation("softplus"), L.Activation("elu"),
                            L.Activation("selu"), L.Activation("hard_sigmoid"),
                            L.Activation("mish")), (7,), "float32"),
        "Softmax_LeakyReLU_PReLU": (seq(L.LeakyReLU(), L.PReLU(), L.Softmax()),
                                    (7,), "float32"),
        # An audio front end: the log magnitude of a short-time Fourier
        # transform (complex64, RFFT), then a Dense.
        "STFT_spectrogram": (seq(L.Lambda(lambda x: tf.math.log(tf.abs(
            tf.signal.stft(x, frame_length=64, frame_step=32, fft_length=64))
            + 1e-6)), L.Dense(4)), (256,), "float32"),
    }


def string_layer_cases():
    """Keras' preprocessing layers of raw strings and ids, whose
    vocabularies are static hash tables: name -> (build, batch of 1, batch
    of 3). Their SavedModels are compiled as they come (a frozen graph
    cannot hold a table)."""
    L = keras.layers
    corpus = ["The cat sat on the mat.", "A dog ate my homework!",
              "The dog sat; the cat ran.", "Cats and dogs, dogs and cats."]

    def model(shape, dtype, layer):
        x = keras.Input(shape, dtype=dtype)
        return keras.Model(x, layer(x))

    def vectorizer(**options):
        def build():
            layer = L.TextVectorization(max_tokens=12, **options)
            layer.adapt(corpus)
            return model((), "string", layer)
        return build

    texts = np.array([b"the CAT sat, on a mat", b"", b"dogs! cats? zebras",
                      b"the the the the the the the the"])
    words = np.array([[b"cat", b"the", b"zebra"], [b"", b"dog", b"cat"],
                      [b"a", b"b", b"the"], [b"mat", b"mat", b"x"]])
    ids = np.array([[5, 10, 7], [20, 0, 5], [-1, 10, 20], [7, 7, 7]], np.int64)
    return {
        "TextVectorization": (vectorizer(output_sequence_length=6),
                              texts[:1], texts[1:]),
        "TextVectorization_multi_hot": (vectorizer(output_mode="multi_hot"),
                                        texts[:1], texts[1:]),
        "StringLookup": (lambda: model((3,), "string", L.StringLookup(
            vocabulary=["the", "cat", "dog", "mat"])), words[:1], words[1:]),
        "StringLookup_one_hot": (lambda: model((3,), "string", L.StringLookup(
            vocabulary=["the", "cat"], output_mode="one_hot")), words[:1], words[1:]),
        "IntegerLookup": (lambda: model((3,), "int64", L.IntegerLookup(
            vocabulary=[5, 10, 20])), ids[:1], ids[1:]),
        "Hashing": (lambda: model((3,), "string", L.Hashing(num_bins=7)),
                    words[:1], words[1:]),
    }


def string_layer_case(args, name, build, one, three):
    """A preprocessing layer's SavedModel, run on a batch of 1 and of 3."""
    case_dir = os.path.join(args.work, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    keras.utils.set_random_seed(SEED)
    model = build()
    model.export(os.path.join(case_dir, "saved_model"), verbose=False)
    serve = tf.saved_model.load(os.path.join(case_dir, "saved_model"))
    batches = [(x, np.asarray(serve.serve(tf.constant(x)))) for x in (one, three)]
    return [("saved_model",) + try_saved_model(args, case_dir, batches)]


def hub_cases():
    """Encoders built from keras-hub backbones (pip install keras-hub), with
    random weights: name -> (build, input shape without the batch, dtype).
    The token ids' padding (id 0) makes the attention mask, as a tokenizer's
    output would."""
    import keras_hub

    def bert(shape):
        backbone = keras_hub.models.BertBackbone(
            vocabulary_size=100, num_layers=2, num_heads=2, hidden_dim=32,
            intermediate_dim=64, max_sequence_length=shape[0])
        ids = keras.Input(shape, dtype="int32")
        out = backbone({"token_ids": ids,
                        "segment_ids": keras.ops.zeros_like(ids),
                        "padding_mask": keras.ops.not_equal(ids, 0)})
        return keras.Model(ids, out["sequence_output"])

    return {"bert_encoder": (bert, (16,), "int32")}


def text_cases():
    """keras-hub backbones, tiny and with random weights, whose inputs are
    [batch, length]: name -> build()."""
    import keras_hub
    H = keras_hub.models
    small = dict(vocabulary_size=60, num_layers=1, num_heads=2, hidden_dim=16,
                 intermediate_dim=32, max_sequence_length=32)
    return {
        "text_bert": lambda: H.BertBackbone(**small),
        "text_gpt2": lambda: H.GPT2Backbone(**small),
        "text_roberta": lambda: H.RobertaBackbone(**small),
        "text_distilbert": lambda: H.DistilBertBackbone(**small),
        "text_albert": lambda: H.AlbertBackbone(embedding_dim=8, **small),
        "text_deberta_v3": lambda: H.DebertaV3Backbone(**small),
        "text_f_net": lambda: H.FNetBackbone(**{k: v for k, v in small.items()
                                                if k != "num_heads"}),
    }


def text_case(args, name, build):
    """A backbone as it exports, compiled with a --max-dim bound on each
    feed's length, run on sequences of 3 and 7 tokens."""
    case_dir = os.path.join(args.work, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    keras.utils.set_random_seed(SEED)
    sm = os.path.join(case_dir, "saved_model")
    build().export(sm, verbose=False)
    serve = tf.saved_model.load(sm).signatures["serving_default"]
    spec = serve.structured_input_signature[1]
    flags = []
    for key in sorted(spec):
        flags += ["--max-dim", "serving_default_%s:1=16" % key]
    program = os.path.join(case_dir, "sm-program")
    code, line = run([args.tfc, "compile", sm, "-o", program] + flags, args.timeout)
    if code:
        return [("saved_model", False, "compile: " + short(line, case_dir))]
    rng = np.random.default_rng(SEED)
    worst = 0.0
    for length in (3, 7):
        feeds = {}
        for key, tensor in spec.items():
            if "mask" in key:
                value = np.ones((2, length))
                value[1, length - 2:] = 0
            elif "segment" in key:
                value = rng.integers(0, 2, (2, length))
            else:
                value = rng.integers(1, 60, (2, length))
            feeds[key] = value.astype(tensor.dtype.as_numpy_dtype)
        want = serve(**{k: tf.constant(v) for k, v in feeds.items()})
        command = [program]
        for key, value in feeds.items():
            path = os.path.join(case_dir, key + ".npy")
            np.save(path, value)
            command += ["--input", "serving_default_%s=%s" % (key, path)]
        outputs = sorted(want)
        for k, key in enumerate(outputs):
            command += ["--output", "StatefulPartitionedCall_1:%d=%s" % (
                k, os.path.join(case_dir, "out-%s.npy" % key))]
        code, line = run(command, args.timeout)
        if code:
            return [("saved_model", False, "run: " + short(line, case_dir))]
        for key in outputs:
            ok, why = compare(case_dir, os.path.join(case_dir, "out-%s.npy" % key),
                              want[key].numpy())
            if not ok:
                return [("saved_model", False, "length %d, %s: %s" % (length, key, why))]
            worst = max(worst, float(np.max(np.abs(
                np.load(os.path.join(case_dir, "out-%s.npy" % key)) - want[key].numpy()))))
    return [("saved_model", True, "--max-dim 16, lengths 3 and 7: max abs diff %.2g" % worst)]


def tf1_cases():
    """TF1 graphs built in a session: name -> build(tf1) returning (input
    placeholder, output tensor, input value)."""
    tf1 = tf.compat.v1

    def dynamic_rnn(bidirectional):
        def build():
            import tf_keras
            rng = np.random.default_rng(SEED)
            x = tf1.placeholder(tf.float32, [2, 6, 3], name="x")
            lengths = tf.constant([6, 4], tf.int32)
            if bidirectional:
                (fw, bw), _ = tf1.nn.bidirectional_dynamic_rnn(
                    tf_keras.layers.LSTMCell(4), tf_keras.layers.GRUCell(4), x,
                    sequence_length=lengths, dtype=tf.float32)
                y = tf.concat([fw, bw], -1)
            else:
                y, _ = tf1.nn.dynamic_rnn(tf_keras.layers.LSTMCell(4), x,
                                          sequence_length=lengths, dtype=tf.float32)
            return x, tf.identity(y, name="y"), rng.standard_normal((2, 6, 3)).astype(np.float32)
        return build

    return {"tf1_dynamic_rnn": dynamic_rnn(False),
            "tf1_bidirectional_dynamic_rnn": dynamic_rnn(True)}


def run(command, timeout):
    """(exit status, first error line or the output's last line)."""
    try:
        p = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "timed out after %d s" % timeout
    text = (p.stderr + p.stdout).strip()
    errors = [l for l in text.splitlines() if "error" in l]
    line = errors[0] if errors else (text.splitlines()[-1] if text else "")
    return p.returncode, line


def compare(tfc_dir, out, want):
    got = np.load(out)
    if got.shape != want.shape:
        return False, "shape %s, TensorFlow's %s" % (got.shape, want.shape)
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    if not np.allclose(got, want, rtol=RTOL, atol=ATOL + SCALED_ATOL * scale):
        return False, "max abs diff %.3g" % float(np.max(np.abs(got - want)))
    return True, "max abs diff %.2g" % float(np.max(np.abs(got - want))) if got.size else "empty"


def short(line, tfc_dir):
    line = line.replace(tfc_dir + "/", "")
    line = re.sub(r"^.*?error: ", "", line)
    return line[:160]


def try_saved_model(args, case_dir, batches):
    """Compiles the SavedModel once and runs it on each (x, want) batch."""
    sm = os.path.join(case_dir, "saved_model")
    program = os.path.join(case_dir, "sm-program")
    code, line = run([args.tfc, "compile", sm, "-o", program], args.timeout)
    if code:
        return False, "compile: " + short(line, case_dir)
    p = subprocess.run([args.tfc, "info", sm], capture_output=True, text=True, timeout=60)
    feeds = re.search(r"^feeds: (\S+)=(\S+)", p.stdout, re.M)
    fetches = re.search(r"^fetches: (\S+)=(\S+)", p.stdout, re.M)
    if not feeds or not fetches:
        return False, "no signature in tfc info"
    results = []
    for x, want in batches:
        np.save(os.path.join(case_dir, "x.npy"), x)
        out = os.path.join(case_dir, "sm-out.npy")
        code, line = run([program, "--input", "%s=%s" % (feeds.group(2), os.path.join(case_dir, "x.npy")),
                          "--output", "%s=%s" % (fetches.group(2), out)], args.timeout)
        if code:
            return False, "run: " + short(line, case_dir)
        ok, why = compare(case_dir, out, want)
        if not ok:
            return False, "batch of %d: %s" % (len(x), why)
        results.append(why)
    return True, "batches of %s: %s" % (
        " and ".join(str(len(x)) for x, _ in batches), results[-1])


def try_frozen(args, case_dir, feed, fetch, x, want):
    program = os.path.join(case_dir, "frozen-program")
    code, line = run([args.tfc, "compile", os.path.join(case_dir, "frozen.pb"),
                      "--feed", feed, "--fetch", fetch, "-o", program], args.timeout)
    if code:
        return False, "compile: " + short(line, case_dir)
    np.save(os.path.join(case_dir, "x.npy"), x)
    out = os.path.join(case_dir, "frozen-out.npy")
    code, line = run([program, "--input", "%s=%s" % (feed, os.path.join(case_dir, "x.npy")),
                      "--output", "%s=%s" % (fetch, out)], args.timeout)
    if code:
        return False, "run: " + short(line, case_dir)
    return compare(case_dir, out, want)


def freeze_keras(model, x, path):
    """The model's forward pass on x's shape, variables as constants."""
    from tensorflow.python.framework.convert_to_constants import \
        convert_variables_to_constants_v2
    spec = tf.TensorSpec(x.shape, x.dtype, name="x")
    f = tf.function(lambda t: model(t, training=False), input_signature=[spec])
    frozen = convert_variables_to_constants_v2(f.get_concrete_function(),
                                               lower_control_flow=False)
    with open(path, "wb") as file:
        file.write(frozen.graph.as_graph_def().SerializeToString())
    return "x", frozen.outputs[0].name.split(":")[0]


def keras_case(args, name, make, x):
    case_dir = os.path.join(args.work, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    keras.utils.set_random_seed(SEED)
    model = make()
    want = np.asarray(model(x, training=False))
    # The SavedModel serves any batch: also one of 3 rows.
    rows = np.random.default_rng(SEED).permutation(
        np.concatenate([x, x * 0.5, -x]).astype(x.dtype))
    if x.dtype.kind == "i":
        rows = np.concatenate([x, x[:, ::-1], x])
    # The signature takes the Input's dtype (float32 unless declared).
    dtype = np.dtype(model.inputs[0].dtype)
    batches = [(x.astype(dtype), want),
               (rows.astype(dtype), np.asarray(model(rows, training=False)))]
    model.export(os.path.join(case_dir, "saved_model"), verbose=False)
    feed, fetch = freeze_keras(model, x, os.path.join(case_dir, "frozen.pb"))
    results = [("saved_model",) + try_saved_model(args, case_dir, batches),
               ("frozen",) + try_frozen(args, case_dir, feed, fetch, x, want)]
    return results


def tf1_case(args, name, build):
    case_dir = os.path.join(args.work, name)
    shutil.rmtree(case_dir, ignore_errors=True)
    os.makedirs(case_dir)
    tf1 = tf.compat.v1
    graph = tf.Graph()
    with graph.as_default():
        tf1.set_random_seed(SEED)
        x, y, value = build()
        with tf1.Session() as session:
            session.run(tf1.global_variables_initializer())
            want = session.run(y, {x: value})
            frozen = tf1.graph_util.convert_variables_to_constants(
                session, graph.as_graph_def(), [y.op.name])
    with open(os.path.join(case_dir, "frozen.pb"), "wb") as f:
        f.write(frozen.SerializeToString())
    return [("frozen",) + try_frozen(args, case_dir, x.op.name, y.op.name, value, want)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tfc", default="build/bin/tfc")
    parser.add_argument("--work")
    parser.add_argument("--only", default="")
    parser.add_argument("--family", default="applications,layers,tf1,hub,text")
    parser.add_argument("--timeout", type=int, default=300)
    parser.add_argument("--report")
    args = parser.parse_args()
    args.tfc = os.path.abspath(args.tfc)
    args.work = args.work or tempfile.mkdtemp(prefix="tfc-broad-")
    only = set(filter(None, args.only.split(",")))
    families = set(args.family.split(","))
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    rng = np.random.default_rng(SEED)

    cases = []
    if "applications" in families:
        for name, side in APPLICATIONS:
            make = (lambda n=name, s=side: getattr(keras.applications, n)(
                weights=None, input_shape=(s, s, 3), classifier_activation=None))
            x = rng.uniform(0, 255, (1, side, side, 3)).astype(np.float32)
            cases.append((name, "application",
                          lambda n=name, m=make, v=x: keras_case(args, n, m, v)))
    if "layers" in families:
        for name, (build, shape, dtype) in layer_cases().items():
            x = (rng.integers(0, 20, (1,) + shape).astype(dtype) if dtype == "int32"
                 else rng.standard_normal((1,) + shape).astype(dtype))
            cases.append(("layer_" + name, "layer",
                          lambda n="layer_" + name, b=build, s=shape, v=x:
                          keras_case(args, n, lambda: b(s), v)))
        for name, (build, one, three) in string_layer_cases().items():
            cases.append(("layer_" + name, "layer",
                          lambda n="layer_" + name, b=build, o=one, t=three:
                          string_layer_case(args, n, b, o, t)))
    if "hub" in families:
        try:
            hub = hub_cases()
        except ImportError:
            hub = {}
            print("keras-hub is not installed: the hub family is left out")
        for name, (build, shape, dtype) in hub.items():
            # Token ids, the last quarter padding.
            x = rng.integers(1, 100, (1,) + shape).astype(dtype)
            x[:, 3 * shape[0] // 4:] = 0
            cases.append((name, "hub", lambda n=name, b=build, s=shape, v=x:
                          keras_case(args, n, lambda: b(s), v)))
    if "text" in families:
        try:
            text = text_cases()
        except ImportError:
            text = {}
            print("keras-hub is not installed: the text family is left out")
        for name, build in text.items():
            cases.append((name, "text", lambda n=name, b=build: text_case(args, n, b)))
    if "tf1" in families:
        for name, build in tf1_cases().items():
            cases.append((name, "tf1", lambda n=name, b=build: tf1_case(args, n, b)))

    rows, passed = [], 0
    for name, family, attempt in cases:
        if only and name not in only:
            continue
        start = time.time()
        try:
            results = attempt()
        except Exception as e:  # The model itself could not be built here.
            traceback.print_exc()
            results = [("build", False, "%s: %s" % (type(e).__name__, str(e).splitlines()[0][:120]))]
        ok = any(r[1] for r in results)
        passed += ok
        detail = "; ".join("%s %s (%s)" % (form, "MATCH" if good else "FAIL", why)
                           for form, good, why in results)
        print("%s %s: %s [%.0f s]" % ("PASS" if ok else "FAIL", name, detail,
                                       time.time() - start))
        sys.stdout.flush()
        rows.append((name, family, ok, results))
    total = len(rows)
    rate = 100.0 * passed / total if total else 0.0
    print("%d of %d cases pass (%.0f%%)" % (passed, total, rate))
    if args.report:
        write_report(args.report, rows, passed, total, rate)


def write_report(path, rows, passed, total, rate):
    lines = ["<!-- Written by test/corpus/broad.py; see docs/ModelCoverage.md's "
             "introduction for the command. -->",
             "| case | family | passes | saved_model (as exported, no flags) | "
             "frozen (batch 1, --feed/--fetch) |", "| --- | --- | --- | --- | --- |"]
    for name, family, ok, results in rows:
        by_form = {form: ("MATCH" if good else "FAIL") + ": " + why.replace("|", "\\|")
                   for form, good, why in results}
        lines.append("| %s | %s | %s | %s | %s |" % (
            name, family, "yes" if ok else "no", by_form.get("saved_model", "-"),
            by_form.get("frozen", by_form.get("build", "-"))))
    lines.append("")
    lines.append("**%d of %d cases pass (%.0f%%).**" % (passed, total, rate))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
