#!/usr/bin/env python3
"""Round-trips every corpus graph through tfc-translate and checks that
TensorFlow still computes exactly the same thing.

    check_roundtrip.py --tfc-translate build/bin/tfc-translate \
        [--out test/corpus/ROUNDTRIP.md] [--only mlp,lstm] [--keep]

For every model in test/corpus/*/manifest.json and each of its graph forms
("frozen", "text", "saved_model"):

  1. tfc-translate --graphdef-to-mlir <file or saved_model dir> -o a.mlir
     tfc-translate --mlir-to-graphdef a.mlir -o b.pb    (binary: ends in .pb)
  2. b.pb is imported with TensorFlow (import_graph_def, name="") and run:
     * frozen / text: with the manifest's feeds and fetches; for a training
       model's text graph: run `init`, then `targets` `steps` times, then the
       fetches, exactly as generate.py did;
     * saved_model: b.pb is the MetaGraph's graph.  The variables are restored
       first by running the ORIGINAL saved_model.pb's saver_def restore op,
       with <saved_model>/variables/variables fed to its filename tensor; then
       the signature's input tensors are fed and its output tensors fetched.
  3. results are compared, requiring identical values (same dtype, shape and
     values; NaN == NaN):
     * frozen / text: against the committed outputs/N.npy;
     * saved_model: against the ORIGINAL SavedModel graph run the same way
       (so the check is "exported graph == original graph").
  4. a markdown table goes to --out; the exit status is 1 unless every row
     is "identical".

TensorFlow runs in a child process per graph (`--worker` mode, one at a time,
niced), so that a GraphDef which makes TensorFlow abort only fails its own
row.  The parent process never imports TensorFlow.
"""

import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

CORPUS_DIR = os.path.dirname(os.path.abspath(__file__))
FORMS = ("frozen", "text", "saved_model")


# --------------------------------------------------------------------------
# Worker: everything that needs TensorFlow.  Prints one JSON object.
# --------------------------------------------------------------------------


def worker(model_dir, form, exported):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"  # same kernels as generate.py
    os.nice(10)
    import numpy as np
    import tensorflow as tf
    from google.protobuf import text_format
    from tensorflow.core.protobuf import saved_model_pb2
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from tfsession import identical, load_graph_def, session_config

    tf1 = tf.compat.v1

    def counts(gd):
        return len(gd.node), len(gd.library.function)

    def run(gd, feeds, fetches, init=None, targets=None, steps=0,
            restore=None):
        """restore: (restore_op_name, filename_tensor_name, prefix) or None."""
        g = tf.Graph()
        with g.as_default():
            tf1.import_graph_def(gd, name="")
        with tf1.Session(graph=g, config=session_config()) as sess:
            if restore:
                sess.run(restore[0], {restore[1]: restore[2]})
            if init:
                sess.run(init)
            for _ in range(steps):
                sess.run(targets, feed_dict=feeds)
            return [np.asarray(v) for v in sess.run(fetches, feed_dict=feeds)]

    def first_line(e):
        msg = str(e).strip().splitlines()
        return "%s: %s" % (type(e).__name__, msg[0] if msg else "")

    with open(os.path.join(model_dir, "manifest.json")) as f:
        m = json.load(f)
    feeds = {f["tensor"]: np.load(os.path.join(model_dir, f["npy"]))
             for f in m["feeds"]}
    res = {"nodes_in": None, "nodes_out": None, "funcs_in": None,
           "funcs_out": None, "result": None, "detail": ""}

    # The original graph, and how to run it.
    src = os.path.join(model_dir, m["graphs"][form])
    restore = None
    if form == "saved_model":
        sm = saved_model_pb2.SavedModel()
        with open(os.path.join(src, "saved_model.pb"), "rb") as f:
            sm.ParseFromString(f.read())
        mg = sm.meta_graphs[0]
        original = mg.graph_def
        sig = mg.signature_def[m["saved_model_signature"]["key"]]
        # Convention (README): signature input key k feeds the npy of the
        # manifest feed whose tensor is "k:0".
        run_feeds = {sig.inputs[k].name: feeds[k + ":0"] for k in sig.inputs}
        fetch_keys = sorted(sig.outputs)
        fetches = [sig.outputs[k].name for k in fetch_keys]
        if mg.HasField("saver_def") and mg.saver_def.restore_op_name:
            restore = (mg.saver_def.restore_op_name,
                       mg.saver_def.filename_tensor_name,
                       os.path.join(src, "variables", "variables"))
        kwargs = {}
    else:
        original = load_graph_def(src)
        run_feeds = feeds
        fetch_keys = [f["tensor"] for f in m["fetches"]]
        fetches = fetch_keys
        training = m["kind"] == "training" and form == "text"
        kwargs = dict(init=m.get("init"), targets=m.get("targets"),
                      steps=m.get("steps", 0)) if training else {}
    res["nodes_in"], res["funcs_in"] = counts(original)

    if not exported:
        print(json.dumps(res))
        return

    try:
        gd = load_graph_def(exported)
    except Exception as e:  # noqa: BLE001
        res["result"] = "DIFFERENT"
        res["detail"] = "exported file is not a GraphDef: " + first_line(e)
        print(json.dumps(res))
        return
    res["nodes_out"], res["funcs_out"] = counts(gd)

    # Reference values.
    if form == "saved_model":
        try:
            want = run(original, run_feeds, fetches, restore=restore)
        except Exception as e:  # noqa: BLE001
            res["result"] = "ERROR"
            res["detail"] = "original SavedModel graph failed: " + first_line(e)
            print(json.dumps(res))
            return
    else:
        want = [np.load(os.path.join(model_dir, f["npy"])) for f in m["fetches"]]

    try:
        got = run(gd, run_feeds, fetches, restore=restore, **kwargs)
    except Exception as e:  # noqa: BLE001
        res["result"] = "DIFFERENT"
        res["detail"] = "TensorFlow failed on the exported graph: " + first_line(e)
        print(json.dumps(res))
        return

    bad = [k for k, w, g in zip(fetch_keys, want, got) if not identical(w, g)]
    if not bad:
        res["result"] = "identical"
    else:
        res["result"] = "DIFFERENT"
        details = []
        for k, w, g in zip(fetch_keys, want, got):
            if k in bad:
                w, g = np.asarray(w), np.asarray(g)
                if w.shape == g.shape and np.issubdtype(w.dtype, np.number) \
                        and np.issubdtype(g.dtype, np.number):
                    d = np.max(np.abs(w.astype(np.float64) - g.astype(np.float64))) \
                        if w.size else 0.0
                    details.append("%s max|diff|=%.3g" % (k, d))
                else:
                    details.append("%s %s%s vs %s%s" % (k, w.dtype, w.shape,
                                                        g.dtype, g.shape))
        res["detail"] = "; ".join(details)
        if form != "saved_model":
            # Tell a tfc bug from a platform whose numerics differ from the
            # machine that generated the corpus.
            try:
                again = run(original, run_feeds, fetches, **kwargs)
                if not all(identical(w, a) for w, a in zip(want, again)):
                    res["detail"] += (" (the ORIGINAL graph does not reproduce "
                                      "the committed outputs on this machine "
                                      "either)")
            except Exception as e:  # noqa: BLE001
                res["detail"] += " (original graph failed too: %s)" % first_line(e)
    print(json.dumps(res))


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


def run_tool(cmd, log_path, timeout):
    """Runs one tfc-translate command; returns None or an error string."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out after %ds" % timeout
    except OSError as e:
        return "cannot run: %s" % e
    out = p.stdout.decode("utf-8", "replace")
    with open(log_path, "w") as f:
        f.write(out)
    if p.returncode != 0:
        why = ("killed by signal %d" % -p.returncode if p.returncode < 0
               else "exit %d" % p.returncode)
        lines = [line.strip() for line in out.splitlines() if line.strip()]
        # Prefer the first line that reads like an error over log noise.
        errs = [line for line in lines
                if re.search(r"\berror\b", line, re.IGNORECASE)]
        msg = errs[0] if errs else (lines[-1] if lines else "(no output)")
        return "%s: %s" % (why, msg)
    return None


def run_worker(model_dir, form, exported, timeout):
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", model_dir,
           form, exported or ""]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"result": "DIFFERENT", "detail": "TensorFlow run timed out"}
    lines = p.stdout.decode("utf-8", "replace").strip().splitlines()
    if p.returncode == 0 and lines:
        try:
            return json.loads(lines[-1])
        except ValueError:
            pass
    err = p.stderr.decode("utf-8", "replace").strip().splitlines()
    why = ("TensorFlow crashed (signal %s)" % signal.Signals(-p.returncode).name
           if p.returncode < 0 else "TensorFlow worker exit %d" % p.returncode)
    return {"result": "DIFFERENT",
            "detail": "%s: %s" % (why, " / ".join(err[-3:]) if err else "")}


def md_cell(s):
    s = "" if s is None else str(s)
    s = s.replace("|", "\\|").replace("\n", " ")
    return s if len(s) <= 300 else s[:297] + "..."


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--worker":
        worker(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
        return 0

    ap = argparse.ArgumentParser(
        description="Round-trip the corpus through tfc-translate.")
    ap.add_argument("--tfc-translate", required=True, help="tfc-translate binary")
    ap.add_argument("--out", default=os.path.join(CORPUS_DIR, "ROUNDTRIP.md"),
                    help="markdown report (default: test/corpus/ROUNDTRIP.md)")
    ap.add_argument("--corpus", default=CORPUS_DIR, help="corpus directory")
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--workdir", default="",
                    help="where a.mlir/b.pb go (default: a fresh temp dir)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory even if all is identical")
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds per tfc-translate or TensorFlow run")
    args = ap.parse_args()

    # The workers run with this same interpreter: it needs TF and NumPy.
    import importlib.util
    missing = [m for m in ("numpy", "tensorflow")
               if importlib.util.find_spec(m) is None]
    if missing:
        print("error: %s cannot import %s; run this script with the Python of "
              "the TensorFlow virtualenv (see README.md)"
              % (sys.executable, ", ".join(missing)), file=sys.stderr)
        return 2

    tfc = os.path.abspath(args.tfc_translate)
    if not os.access(tfc, os.X_OK):
        print("error: %s is not an executable" % tfc, file=sys.stderr)
        return 2
    wanted = {s for s in args.only.split(",") if s}
    workdir = args.workdir or tempfile.mkdtemp(prefix="tfc_roundtrip_")
    os.makedirs(workdir, exist_ok=True)

    rows, failures = [], []
    manifests = sorted(glob.glob(os.path.join(args.corpus, "*", "manifest.json")))
    for mpath in manifests:
        model_dir = os.path.dirname(os.path.abspath(mpath))
        with open(mpath) as f:
            m = json.load(f)
        if wanted and m["name"] not in wanted:
            continue
        for form in FORMS:
            if form not in m["graphs"]:
                continue
            src = os.path.join(model_dir, m["graphs"][form])
            wd = os.path.join(workdir, "%s.%s" % (m["name"], form))
            os.makedirs(wd, exist_ok=True)
            a, b = os.path.join(wd, "a.mlir"), os.path.join(wd, "b.pb")
            for p in (a, b):
                if os.path.exists(p):
                    os.remove(p)
            cmds = [[tfc, "--graphdef-to-mlir", src, "-o", a],
                    [tfc, "--mlir-to-graphdef", a, "-o", b]]
            error = None
            for i, cmd in enumerate(cmds):
                log = os.path.join(wd, "step%d.log" % (i + 1))
                error = run_tool(cmd, log, args.timeout)
                if error is None and not os.path.exists(cmd[-1]):
                    error = "exit 0 but %s was not written" % cmd[-1]
                if error:
                    full = ""
                    if os.path.exists(log):
                        with open(log) as f:
                            full = f.read()
                    failures.append((m["name"], form, " ".join(cmd), full or error))
                    error = "tfc error: " + error
                    break
            res = run_worker(model_dir, form, None if error else b, args.timeout)
            if error:
                res["result"] = error
            elif res.get("result") != "identical":
                failures.append((m["name"], form, "TensorFlow run of " + b,
                                 res.get("result", "") + ": " + res.get("detail", "")))
            row = (m["name"], form, res.get("nodes_in"), res.get("nodes_out"),
                   "%s / %s" % (res.get("funcs_in"), res.get("funcs_out")),
                   res["result"] if res["result"] != "DIFFERENT"
                   else "DIFFERENT: " + res.get("detail", ""))
            rows.append(row)
            print("%-18s %-12s %s" % (row[0], row[1], row[5]), flush=True)

    ok = sum(1 for r in rows if r[5] == "identical")
    with open(args.out, "w") as f:
        f.write("# tfc-translate round trip of the test corpus\n\n")
        f.write("Generated by `test/corpus/check_roundtrip.py`: GraphDef -> MLIR "
                "-> GraphDef with `tfc-translate`, then the exported graph is run "
                "by TensorFlow and compared bit for bit (frozen/text: with the "
                "committed outputs; saved_model: with the original SavedModel "
                "graph).\n\n")
        f.write("**%d of %d identical.**\n\n" % (ok, len(rows)))
        f.write("| model | graph form | nodes in | nodes out | functions (in / out) "
                "| result |\n|---|---|---|---|---|---|\n")
        for r in rows:
            f.write("| " + " | ".join(md_cell(c) for c in r) + " |\n")
        if failures:
            f.write("\n## Failures\n")
            for name, form, cmd, text in failures:
                lines = text.strip().splitlines()
                if len(lines) > 40:
                    lines = lines[:40] + ["... (%d more lines)" % (len(lines) - 40)]
                f.write("\n### %s / %s\n\n```\n$ %s\n%s\n```\n"
                        % (name, form, cmd.replace(workdir, "$WORKDIR"),
                           "\n".join(lines).replace(workdir, "$WORKDIR")))
    print("\n%d of %d identical; report written to %s" % (ok, len(rows), args.out))
    if ok != len(rows) or args.keep:
        print("work directory kept: %s" % workdir)
    elif not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok == len(rows) and rows else 1


if __name__ == "__main__":
    sys.exit(main())
